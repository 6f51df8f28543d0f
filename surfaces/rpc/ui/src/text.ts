// Agent-written text is shown as text: every node gets it through
// textContent, never as markup, and the characters that would hide or
// reorder what the reader sees (controls, bidi overrides and isolates,
// invisible marks) are shown as \u{…} escapes instead.

const hidden = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

function escape(c: string): string {
  return "\\u{" + c.codePointAt(0)!.toString(16).toUpperCase() + "}";
}

/** visible is s with hidden characters escaped; newlines and tabs stay. */
export function visible(s: string): string {
  return s.replace(hidden, escape);
}

/** oneLine is visible(s) for a row: newlines and tabs escaped too. */
export function oneLine(s: string): string {
  return visible(s).replace(/[\n\t]/g, escape);
}

/** el makes an element with a class and, optionally, text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** ago says how long before now ts (RFC 3339) was, as the original's tree does: "16 min ago". */
export function ago(ts: string, now = Date.now()): string {
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return visible(ts);
  const s = Math.round((now - t) / 1000);
  if (s < 0) return "in the future";
  if (s < 45) return "just now";
  const unit = (n: number, one: string) => `${n} ${one}${n === 1 || one === "min" ? "" : "s"} ago`;
  if (s < 3600) return unit(Math.max(1, Math.round(s / 60)), "min");
  if (s < 86400) return unit(Math.round(s / 3600), "hour");
  if (s < 86400 * 30) return unit(Math.round(s / 86400), "day");
  return new Date(t).toISOString().slice(0, 10);
}

/** timeEl is a <time> saying ts relative to now, the exact time on hover ("—" for none). */
export function timeEl(ts: string | undefined): HTMLTimeElement {
  const e = el("time", "", ts === undefined ? "—" : ago(ts));
  if (ts !== undefined) {
    e.dateTime = ts;
    e.title = visible(ts); // a hover shows no hidden or reordering characters either
  }
  return e;
}
