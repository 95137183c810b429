// A sparkline of timed samples in an SVG whose viewBox is 300 × 60.

const WIDTH = 300;
const HEIGHT = 60;
const SVG = "http://www.w3.org/2000/svg";

/**
 * Draws samples over the last `windowMs`: the newest at the right edge, zero at the bottom,
 * the largest value (or the target, whichever is higher) near the top, and the target as a
 * dashed line when given.
 * @param {SVGSVGElement} svg
 * @param {{at: number, value: number}[]} samples oldest first
 * @param {{now: number, windowMs: number, target?: number|null}} options
 */
export function drawSparkline(svg, samples, { now, windowMs, target = null }) {
  const top = Math.max(1, target ?? 0, ...samples.map((sample) => sample.value)) * 1.1;
  const x = (at) => (WIDTH * (at - (now - windowMs))) / windowMs;
  const y = (value) => HEIGHT - (HEIGHT * value) / top;
  const parts = [];
  if (samples.length) {
    const points = samples.map((sample) => `${x(sample.at).toFixed(1)},${y(sample.value).toFixed(1)}`);
    // The last value holds until now.
    points.push(`${WIDTH},${y(samples.at(-1).value).toFixed(1)}`);
    const area = document.createElementNS(SVG, "polygon");
    area.setAttribute("class", "area");
    area.setAttribute("points", `${x(samples[0].at).toFixed(1)},${HEIGHT} ${points.join(" ")} ${WIDTH},${HEIGHT}`);
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("class", "line");
    line.setAttribute("points", points.join(" "));
    parts.push(area, line);
  }
  if (target) {
    const guide = document.createElementNS(SVG, "line");
    guide.setAttribute("class", "target");
    guide.setAttribute("x1", "0");
    guide.setAttribute("x2", String(WIDTH));
    guide.setAttribute("y1", y(target).toFixed(1));
    guide.setAttribute("y2", y(target).toFixed(1));
    parts.push(guide);
  }
  svg.replaceChildren(...parts);
}
