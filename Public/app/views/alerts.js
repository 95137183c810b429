// Messages for refused actions and failures, in the page's alert region, and quiet
// announcements for screen readers.

import { h } from "./dom.js";

const ALERT_LIMIT = 4;
const INFO_LIFETIME_MS = 6000;

/**
 * Creates the alert functions over the page's regions.
 * @param {HTMLElement} region the `aria-live` container for alerts
 * @param {HTMLElement} announcer a polite `role="status"` element
 */
export function createAlerts(region, announcer) {
  function show(kind, title, detail) {
    const alert = h("div", { class: "alert", role: kind === "error" ? "alert" : "status", dataset: { kind } },
      h("p", { class: "alert-title", text: title }),
      detail ? h("p", { class: "alert-detail", text: detail }) : null,
      h("button", { type: "button", class: "button small dismiss", "aria-label": "Dismiss", text: "✕", onclick: () => alert.remove() }));
    region.append(alert);
    while (region.children.length > ALERT_LIMIT) region.firstElementChild.remove();
    if (kind === "info") setTimeout(() => alert.remove(), INFO_LIFETIME_MS);
    return alert;
  }

  return {
    /**
     * Shows why an action failed: the API's message, with its code, reason and field.
     * @param {string} action what the person tried, e.g. "Add item"
     * @param {Error & {code?: string, reason?: string, field?: string, status?: number}} error
     */
    error(action, error) {
      const detail = [
        error.code ? `code: ${error.code}` : null,
        error.reason ? `reason: ${error.reason}` : null,
        error.field ? `field: ${error.field}` : null,
        error.status ? `HTTP ${error.status}` : null,
      ].filter(Boolean).join(" · ");
      return show("error", `${action}: ${error.message}`, detail);
    },
    /** @param {string} message a short confirmation that disappears by itself */
    info(message) {
      return show("info", message, null);
    },
    /** @param {string} message read by screen readers, not shown */
    announce(message) {
      announcer.textContent = "";
      // A new text node in a later task is announced even when the text repeats.
      setTimeout(() => { announcer.textContent = message; }, 30);
    },
  };
}
