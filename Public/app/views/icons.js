// Icons as inline SVG (24 × 24, currentColor), so that no glyph depends on the fonts installed.

const SVG = "http://www.w3.org/2000/svg";
const PATHS = {
  play: "M8 5v14l11-7z",
  pause: "M6 5h4v14H6zM14 5h4v14h-4z",
  previous: "M6 5h2v14H6zM9.5 12L19 5v14z",
  next: "M16 5h2v14h-2zM5 5l9.5 7L5 19z",
  pip: "M2 4h20v16H2zM4 6v12h16V6zM11 11h7v5h-7z",
  trash: "M9 3h6l1 2h4v2H4V5h4zM6 8h12l-1 13H7z",
  pencil: "M4 17.25V20h2.75L17.8 8.94l-2.75-2.75zM20.7 6.04a1 1 0 000-1.41l-1.34-1.34a1 1 0 00-1.41 0l-1.13 1.13 2.75 2.75z",
  grip: "M8 5h3v3H8zM13 5h3v3h-3zM8 10.5h3v3H8zM13 10.5h3v3h-3zM8 16h3v3H8zM13 16h3v3h-3z",
};

/**
 * An icon element, hidden from assistive technology (its button carries the label).
 * @param {keyof typeof PATHS} name
 * @returns {SVGSVGElement}
 */
export function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "icon");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", PATHS[name]);
  path.setAttribute("fill-rule", "evenodd");
  svg.append(path);
  return svg;
}

/**
 * Puts its icon into every element under `root` that names one in `data-icon`.
 * @param {ParentNode} root
 */
export function fillIcons(root) {
  for (const element of root.querySelectorAll("[data-icon]")) {
    element.replaceChildren(icon(element.dataset.icon));
  }
}
