"""packages.py: `import micropip` in a block, served from the site's own files.

What it is: the runner awaits `provide(tree)` before a block runs. In the browser, when the block imports micropip
and Python has not loaded it yet, it loads the micropip wheel the build put into assets/packages/ and points
micropip at the site's own simple index there (site_scripts/hooks/registry_wheels.py), so that
`await micropip.install("micrograd")` fetches nothing from any other address. Nothing is downloaded before a
block imports micropip.
What it is not: micropip itself, nor a way to PyPI: the index lists only the wheels the build pinned. Under
CPython (the build) it does nothing; block_outputs.py provides micropip there.
"""
import ast
import sys

PACKAGES_FOLDER = "../../../packages/"  # assets/packages/, from the worker's own script (assets/lesson/browser/runtime/)


def imports_micropip(tree):
    """Whether the parsed block `tree` imports micropip (`import micropip`, `from micropip import ...`)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(alias.name.split(".")[0] == "micropip" for alias in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "micropip" and not node.level:
            return True
    return False


async def provide(tree):
    """Load micropip from the site, pointed at the site's index, if block `tree` needs it and it is not loaded."""
    if sys.platform != "emscripten" or "micropip" in sys.modules or not imports_micropip(tree):
        return
    import js
    import pyodide_js
    from pyodide.http import pyfetch

    folder = js.URL.new(PACKAGES_FOLDER, js.location.href).href
    response = await pyfetch(folder + "packages.json")
    response.raise_for_status()
    wheel = (await response.json())["micropip"]
    await pyodide_js.loadPackage(folder + wheel)
    import micropip
    micropip.set_index_urls([folder + "simple/{package_name}/"])
