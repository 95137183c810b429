// Tiny DOM helpers shared by the views.

/**
 * Creates an element. Attributes named `on…` with a function become listeners; `class`,
 * `text` and `dataset` are shorthands; `false`, null and undefined attributes are left out.
 * @param {string} tag
 * @param {Record<string, unknown>} [attributes]
 * @param {...(Node|string|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (name === "class") {
      element.className = String(value);
    } else if (name === "text") {
      element.textContent = String(value);
    } else if (name === "dataset") {
      Object.assign(element.dataset, value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/**
 * A table with a header row; `columns` gives each column's title and how to get its cell
 * (text or a node) from a row.
 * @template Row
 * @param {{title: string, value: (row: Row) => string|Node, numeric?: boolean, wrap?: boolean}[]} columns
 * @param {Row[]} rows
 * @param {{caption?: string, rowAttributes?: (row: Row) => Record<string, unknown>, detail?: (row: Row) => string|null}} [options]
 *   `detail` gives a line shown under a row across every column (a long URI, for instance)
 */
export function table(columns, rows, options = {}) {
  const head = h("tr", {}, ...columns.map((column) => h("th", { scope: "col", class: column.numeric ? "num" : null, text: column.title })));
  const body = rows.flatMap((row) => {
    const cells = h("tr", options.rowAttributes?.(row) ?? {},
      ...columns.map((column) => h("td", {
        class: [column.numeric ? "num" : "", column.wrap ? "wrap" : ""].join(" ").trim() || null,
      }, column.value(row))));
    const detail = options.detail?.(row);
    if (!detail) return [cells];
    cells.classList.add("has-detail");
    return [cells, h("tr", { class: "detail" }, h("td", { colspan: String(columns.length), text: detail }))];
  });
  return h("div", { class: "table-wrap" },
    h("table", {},
      options.caption ? h("caption", { class: "visually-hidden", text: options.caption }) : null,
      h("thead", {}, head),
      h("tbody", {}, ...body)));
}

/**
 * A definition list of facts.
 * @param {[string, string|Node][]} pairs
 */
export function facts(pairs, element = h("dl", { class: "facts" })) {
  element.replaceChildren(...pairs.flatMap(([term, value]) => [h("dt", { text: term }), h("dd", {}, value)]));
  return element;
}

/**
 * Positions absolutely placed range elements over a timeline, reusing the container.
 * @param {HTMLElement} container
 * @param {{start: number, end: number}[]} ranges
 * @param {{start: number, end: number}} timeline
 */
export function drawRanges(container, ranges, timeline) {
  const span = timeline.end - timeline.start;
  const parts = span > 0 ? ranges.map((range) => {
    const left = Math.max(0, (range.start - timeline.start) / span);
    const right = Math.min(1, (range.end - timeline.start) / span);
    const element = h("div", { class: "range" });
    element.style.left = `${(left * 100).toFixed(3)}%`;
    element.style.width = `${(Math.max(0, right - left) * 100).toFixed(3)}%`;
    return element;
  }) : [];
  container.replaceChildren(...parts);
}
