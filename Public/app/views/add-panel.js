// Adding to the queue: the add bar (a URL, appended or inserted after the current item) and
// playlist import by file picker, dropped file, pasted text or URL, with the parser's
// diagnostics shown in the page.

import { h, table } from "./dom.js";

const PLAYLIST_EXTENSIONS = [".m3u8", ".m3u", ".txt"];

/**
 * Binds the add bar and the import panel.
 * @param {object} context
 * @param {ReturnType<import("../store.js").createStore>} context.store
 * @param {ReturnType<import("../api.js").createApi>} context.api
 * @param {ReturnType<import("./alerts.js").createAlerts>} context.alerts
 */
export function bindAddPanel({ store, api, alerts }) {
  const $ = (id) => document.getElementById(id);
  const addForm = $("add-form");
  const urlInput = $("add-url");
  const titleInput = $("add-title-input");
  const fileInput = $("import-file");
  const dropZone = $("drop-zone");
  const textForm = $("import-text-form");
  const textInput = $("import-text");
  const urlForm = $("import-url-form");
  const importURL = $("import-url");
  const baseInput = $("import-base");
  const result = $("import-result");
  const importPanel = $("import");

  /** The item to insert after, per the position choice; undefined appends. */
  function anchor() {
    const choice = addForm.elements.position.value;
    return choice === "after-current" ? store.state.queue?.currentItemId ?? undefined : undefined;
  }

  addForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const queueId = store.state.selectedQueueId;
    if (!queueId) return;
    const body = { url: urlInput.value.trim() };
    const title = titleInput.value.trim();
    if (title) body.title = title;
    const after = anchor();
    if (after) body.after = after;
    try {
      const item = await api.addItem(queueId, body);
      urlInput.value = "";
      titleInput.value = "";
      urlInput.removeAttribute("aria-invalid");
      alerts.announce(`${item.title || item.url} added`);
    } catch (error) {
      urlInput.setAttribute("aria-invalid", "true");
      alerts.error("Add item", error);
      urlInput.focus();
    }
  });
  urlInput.addEventListener("input", () => urlInput.removeAttribute("aria-invalid"));

  function diagnosticsTable(diagnostics) {
    return table([
      { title: "Line", value: (d) => String(d.line), numeric: true },
      { title: "Col", value: (d) => String(d.column ?? ""), numeric: true },
      { title: "Severity", value: (d) => d.severity },
      { title: "Rule", value: (d) => d.rule },
      { title: "Message", value: (d) => d.message },
    ], diagnostics, {
      caption: "Playlist diagnostics",
      rowAttributes: (d) => ({ dataset: { severity: d.severity }, class: "diagnostic" }),
    });
  }

  function showResult(summary, diagnostics) {
    result.replaceChildren(
      h("p", { class: "import-summary", text: summary }),
      diagnostics.length ? diagnosticsTable(diagnostics) : h("p", { class: "hint", text: "The parser reported nothing." }));
  }

  /**
   * Imports a playlist into the shown queue.
   * @param {{text?: string, url?: string}} source
   * @param {string} label where it came from, for messages
   */
  async function importPlaylist(source, label) {
    const queueId = store.state.selectedQueueId;
    if (!queueId) return false;
    const body = { ...source };
    const base = baseInput.value.trim();
    if (body.text !== undefined && base) body.base = base;
    const after = anchor();
    if (after) body.after = after;
    importPanel.open = true;
    result.replaceChildren(h("p", { class: "hint", text: `Importing ${label}…` }));
    try {
      const answer = await api.importPlaylist(queueId, body);
      const count = answer.items.length;
      showResult(`Imported ${count} item${count === 1 ? "" : "s"} from ${label} (${answer.kind}).`, answer.diagnostics);
      alerts.announce(`Imported ${count} items`);
      return true;
    } catch (error) {
      showResult(`Nothing imported from ${label}: ${error.message}`, error.diagnostics ?? []);
      alerts.error("Import playlist", error);
      return false;
    }
  }

  async function importFile(file) {
    const name = file.name.toLowerCase();
    if (!PLAYLIST_EXTENSIONS.some((extension) => name.endsWith(extension))) {
      alerts.error("Import playlist", new Error(`${file.name} is not a playlist (.m3u8, .m3u or .txt)`));
      return;
    }
    await importPlaylist({ text: await file.text() }, file.name);
  }

  fileInput.addEventListener("change", async () => {
    const [file] = fileInput.files;
    if (file) await importFile(file);
    fileInput.value = "";
  });

  textForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!textInput.value.trim()) return;
    if (await importPlaylist({ text: textInput.value }, "the pasted text")) textInput.value = "";
  });

  urlForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const url = importURL.value.trim();
    if (!url) return;
    if (await importPlaylist({ url }, url)) importURL.value = "";
  });

  // Files dropped anywhere on the page import; the drop zone lights up while a file is over it.
  const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes("Files");
  let dragDepth = 0;
  document.addEventListener("dragenter", (event) => {
    if (!hasFiles(event)) return;
    dragDepth += 1;
    document.body.classList.add("is-dragging-file");
    importPanel.open = true;
  });
  document.addEventListener("dragleave", (event) => {
    if (!hasFiles(event)) return;
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) document.body.classList.remove("is-dragging-file");
  });
  document.addEventListener("dragover", (event) => {
    if (hasFiles(event)) event.preventDefault();
  });
  document.addEventListener("drop", async (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    dragDepth = 0;
    document.body.classList.remove("is-dragging-file");
    for (const file of event.dataTransfer.files) await importFile(file);
  });
  dropZone.addEventListener("dragover", () => dropZone.classList.add("is-over"));
  dropZone.addEventListener("dragleave", () => dropZone.classList.remove("is-over"));
  dropZone.addEventListener("drop", () => dropZone.classList.remove("is-over"));

  store.subscribe((state) => {
    const disabled = !state.selectedQueueId;
    for (const control of [...addForm.elements, fileInput, textInput, importURL]) control.disabled = disabled;
  });
}
