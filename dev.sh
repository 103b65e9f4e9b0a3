#!/usr/bin/env bash
# The project's commands. Each one installs what it needs first.
#   ./dev.sh serve   build the site and serve it at http://127.0.0.1:8000
#   ./dev.sh test    run the whole test suite (engine, engine in Pyodide, site in Chromium, Firefox, WebKit)
#   ./dev.sh bench   build the site, drive Chromium and print the benchmark table (options: --quick ...)
#   ./dev.sh build   only build the site into site/ (SITE_URL sets its address; used to publish it)
set -euo pipefail
cd "$(dirname "$0")"

as_root() { [ "$(id -u)" = 0 ]; }

apt_install() {  # apt_install PACKAGE...: only as root, with a clear message otherwise
  if as_root; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "Please install these Debian packages first: sudo apt-get install -y $*" >&2
    exit 1
  fi
}

install_site() {
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv 2>/dev/null || { rm -rf .venv; apt_install python3-venv; python3 -m venv .venv; }
  fi
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
  # npm ci only when package-lock.json changed since the last install (a copy of it marks that install)
  if ! cmp -s package-lock.json node_modules/.installed-from-package-lock.json 2>/dev/null; then
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json node_modules/.installed-from-package-lock.json
  fi
}

install_tests() {
  install_site
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
  local missing=()
  # Chromium's headless shell: the browser tests' Chromium (Playwright's choice too; a page costs less than in
  # the whole browser). Where it is missing, tests/site/helpers.py's chromium_path() takes a Chromium that is there.
  if [ -z "${CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium-headless-shell ]; then
    missing+=(chromium-headless-shell)
  fi
  # The other engines (tests/site/test_firefox.py, test_webkit.py): Firefox ESR, driven over WebDriver
  # BiDi by npm's puppeteer-core, and WebKitGTK's MiniBrowser with its WebDriver, run under Xvfb.
  [ -x /usr/bin/firefox-esr ] || missing+=(firefox-esr)
  [ -x /usr/bin/WebKitWebDriver ] || missing+=(webkit2gtk-driver)
  command -v Xvfb >/dev/null || missing+=(xvfb)
  # Without root the tests of a missing browser skip (and fail under CI=true), saying what to install.
  if [ ${#missing[@]} -gt 0 ] && as_root; then
    apt_install "${missing[@]}"
  fi
}

build_site() {
  NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet "$@"
}

case "${1:-}" in
  serve)
    install_site
    build_site
    exec .venv/bin/python site/serve.py site --host 127.0.0.1 --port "${PORT:-8000}"
    ;;
  test)
    install_tests
    shift
    exec .venv/bin/python -m pytest "$@"
    ;;
  build)
    install_site
    build_site
    ;;
  bench)
    install_tests
    shift
    exec .venv/bin/python tests/benchmarks/run_all.py "$@"  # it builds the site for its own port
    ;;
  *)
    echo "usage: ./dev.sh serve | test [pytest arguments] | bench [--quick ...] | build" >&2
    exit 2
    ;;
esac
