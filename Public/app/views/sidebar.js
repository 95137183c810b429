// The sidebar: every queue, with create, rename and delete.

import { h } from "./dom.js";
import { icon } from "./icons.js";

/**
 * Binds the sidebar.
 * @param {object} context
 * @param {ReturnType<import("../store.js").createStore>} context.store
 * @param {ReturnType<import("../api.js").createApi>} context.api
 * @param {ReturnType<import("./alerts.js").createAlerts>} context.alerts
 * @param {(queueId: string) => void} context.openQueue
 */
export function bindSidebar({ store, api, alerts, openQueue }) {
  const list = document.getElementById("queue-nav");
  const form = document.getElementById("create-queue-form");
  const nameInput = document.getElementById("new-queue-name");
  let renaming = null;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = nameInput.value.trim();
    try {
      const snapshot = await api.createQueue(name);
      store.applySnapshot(snapshot);
      nameInput.value = "";
      openQueue(snapshot.id);
      alerts.announce(`Queue ${snapshot.name} created`);
    } catch (error) {
      alerts.error("Create queue", error);
    }
  });

  async function rename(queue, name) {
    try {
      store.applySnapshot(await api.updateQueue(queue.id, { name }));
      renaming = null;
      render(store.state);
      list.querySelector(`[data-queue-id="${CSS.escape(queue.id)}"] .queue-link`)?.focus();
    } catch (error) {
      alerts.error("Rename queue", error);
    }
  }

  async function remove(queue) {
    if (!window.confirm(`Delete the queue “${queue.name}” and its items?`)) return;
    try {
      await api.deleteQueue(queue.id);
      alerts.announce(`Queue ${queue.name} deleted`);
    } catch (error) {
      alerts.error("Delete queue", error);
    }
  }

  function row(queue, selectedId) {
    if (renaming === queue.id) {
      const input = h("input", { type: "text", value: queue.name, "aria-label": `New name for ${queue.name}`, required: true });
      const renameForm = h("form", {
        class: "queue-rename",
        onsubmit: (event) => { event.preventDefault(); rename(queue, input.value.trim()); },
        onkeydown: (event) => {
          if (event.key === "Escape") { renaming = null; render(store.state); }
        },
      }, input, h("button", { type: "submit", class: "button small", text: "Save" }));
      queueMicrotask(() => { input.focus(); input.select(); });
      return h("li", { dataset: { queueId: queue.id } }, renameForm);
    }
    return h("li", { dataset: { queueId: queue.id } },
      h("button", {
        type: "button", class: "queue-link", "aria-current": queue.id === selectedId ? "true" : null,
        onclick: () => openQueue(queue.id),
      },
        h("span", { class: "name", text: queue.name }),
        h("span", { class: "count", text: String(queue.itemCount), "aria-label": `${queue.itemCount} items` })),
      h("span", { class: "queue-tools" },
        h("button", {
          type: "button", class: "button small", "aria-label": `Rename ${queue.name}`, title: "Rename",
          onclick: () => { renaming = queue.id; render(store.state); },
        }, icon("pencil")),
        h("button", {
          type: "button", class: "button small danger", "aria-label": `Delete ${queue.name}`, title: "Delete",
          onclick: () => remove(queue),
        }, icon("trash"))));
  }

  let shown = null;
  function render(state) {
    const key = JSON.stringify([state.queues.map((q) => [q.id, q.name, q.itemCount]), state.selectedQueueId, renaming]);
    if (key === shown) return;
    shown = key;
    // Rebuilding must not drop the keyboard focus: put it back on the same control.
    const focused = list.contains(document.activeElement) ? document.activeElement : null;
    const focusedQueue = focused?.closest("[data-queue-id]")?.dataset.queueId;
    const focusedLabel = focused?.getAttribute("aria-label") ?? null;
    list.replaceChildren(...state.queues.map((queue) => row(queue, state.selectedQueueId)));
    if (focusedQueue && renaming === null) {
      const item = list.querySelector(`[data-queue-id="${CSS.escape(focusedQueue)}"]`);
      const target = (focusedLabel && item?.querySelector(`[aria-label="${CSS.escape(focusedLabel)}"]`)) || item?.querySelector(".queue-link");
      target?.focus();
    }
  }

  store.subscribe(render);
}
