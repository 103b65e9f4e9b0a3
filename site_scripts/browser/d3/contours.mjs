// contours.mjs: the entry point of the d3-contour bundle (site_scripts/hooks/vendor.py bundles it
// with esbuild into assets/vendor/d3/contours.mjs at every site build).
// What it is: d3-contour's marching squares, which turn a grid of numbers the Python models
// computed into level lines. What it is not: loaded as is; the figures import the bundle.
export { contours } from "d3-contour";
