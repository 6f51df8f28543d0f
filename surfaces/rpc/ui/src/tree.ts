// The tree: a virtual list that makes elements only for the rows in view,
// so that a 100k-item noggin scrolls as a small one does.
import type { Model, Node } from "./model";
import { el, oneLine } from "./text";

const rowHeight = 28;
const overscan = 10;

/** Where a dragged row goes relative to the row it is dropped on. */
export type Place = "before" | "after" | "into";

/** What the tree asks of its page. */
export interface TreeActions {
  pick(n: Node): void; // a click
  check(n: Node): void; // a click on the row's checkbox
  rename(n: Node): void; // a double click
  menu(n: Node, x: number, y: number): void; // a right click
  drop(n: Node, onto: Node, place: Place): void; // a drag let go over a row
  refuse(why: string): void; // a drag let go where it cannot go
}

/** A row being dragged: where the press was, and where a drop would go. */
interface Drag {
  key: string;
  x: number;
  y: number;
  moving: boolean;
  onto?: Node;
  place?: Place;
  refused?: string;
}

export class TreeView {
  readonly el = el("div", "tree");
  private readonly spacer = el("div", "spacer");
  private rowsEl: HTMLElement[] = [];
  model: Model | null = null;
  rows: Node[] = [];
  readonly collapsed = new Set<string>();
  selected: string | null = null;
  private spine = new Set<string>();
  private frame = 0;
  /** The row being renamed in place (F2) and what its Enter does. */
  private editing: { key: string; commit: (title: string) => void } | null = null;
  private drag: Drag | null = null;
  private dragged = false; // the click that ends a drag is not a pick
  /** Shows where a dragged row would go: a line between rows, or a box around the row it would go into. */
  private readonly indicator = el("div", "drop");

  constructor(private readonly on: TreeActions) {
    this.el.tabIndex = 0;
    this.el.setAttribute("role", "tree");
    this.el.setAttribute("aria-label", "items");
    this.indicator.hidden = true;
    this.indicator.setAttribute("aria-hidden", "true");
    this.el.append(this.spacer, this.indicator);
    this.el.addEventListener("scroll", () => this.schedule());
    new ResizeObserver(() => this.schedule()).observe(this.el);
    this.el.addEventListener("click", (e) => this.click(e, false));
    this.el.addEventListener("dblclick", (e) => this.click(e, true));
    this.el.addEventListener("contextmenu", (e) => {
      const n = this.rowOf(e.target);
      if (!n || e.button !== 2) return; // the keyboard's menu key is the page's (see NogginPage.key)
      e.preventDefault();
      this.selected = n.key;
      this.paint();
      this.on.menu(n, e.clientX, e.clientY);
    });
    this.el.addEventListener("mousedown", (e) => this.press(e));
  }

  private rowOf(target: EventTarget | null): Node | undefined {
    const row = (target as HTMLElement | null)?.closest<HTMLElement>(".row");
    return row?.dataset.key ? this.model?.byKey.get(row.dataset.key) : undefined;
  }

  /** rowRect is where the row of key is on the screen (null: not in view). */
  rowRect(key: string): DOMRect | null {
    const i = this.rows.findIndex((r) => r.key === key);
    if (i < 0) return null;
    const box = this.el.getBoundingClientRect();
    return new DOMRect(box.left, box.top + i * rowHeight - this.el.scrollTop, box.width, rowHeight);
  }

  /** press starts following a row held down with the main button: moved a few pixels, it is dragged. */
  private press(e: MouseEvent): void {
    const t = e.target as HTMLElement;
    const n = this.rowOf(t);
    if (!n || e.button !== 0 || t.closest(".twisty, .check, input")) return;
    // No text selection, which the browser would drag itself (and then send no more moves).
    e.preventDefault();
    this.el.focus();
    this.drag = { key: n.key, x: e.clientX, y: e.clientY, moving: false };
    const move = (m: MouseEvent) => this.dragTo(m);
    const key = (k: KeyboardEvent) => {
      if (k.key !== "Escape" || !this.drag) return;
      k.preventDefault();
      k.stopPropagation();
      this.endDrag();
    };
    const up = (u: MouseEvent) => {
      document.removeEventListener("mousemove", move);
      document.removeEventListener("mouseup", up);
      document.removeEventListener("keydown", key, true);
      const d = this.drag;
      this.endDrag();
      if (!d?.moving) return;
      this.dragged = true; // the click this release makes
      setTimeout(() => (this.dragged = false));
      const n = this.model?.byKey.get(d.key);
      if (!n || !d.onto || !d.place) return;
      if (d.refused) this.on.refuse(d.refused);
      else if (d.onto !== n) this.on.drop(n, d.onto, d.place);
      u.preventDefault();
    };
    document.addEventListener("mousemove", move);
    document.addEventListener("mouseup", up);
    document.addEventListener("keydown", key, true);
  }

  /** dragTo follows a dragged row: which row is under the pointer, which quarter of it, and the indicator. */
  private dragTo(e: MouseEvent): void {
    const d = this.drag;
    if (!d) return;
    if (!d.moving && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 5) return;
    if (!d.moving) {
      d.moving = true;
      this.paint(); // the dragged row shows it
    }
    e.preventDefault(); // no text selection while dragging
    this.el.classList.add("dragging");
    const box = this.el.getBoundingClientRect();
    if (e.clientY < box.top + rowHeight) this.el.scrollTop -= rowHeight / 2; // near an edge: scroll
    else if (e.clientY > box.bottom - rowHeight) this.el.scrollTop += rowHeight / 2;
    const y = e.clientY - box.top + this.el.scrollTop;
    const i = Math.floor(y / rowHeight);
    const onto = this.rows[i];
    const dragged = this.model?.byKey.get(d.key);
    if (!onto || !dragged || y < 0) {
      d.onto = d.place = d.refused = undefined;
      this.indicator.hidden = true;
      return;
    }
    const f = (y - i * rowHeight) / rowHeight;
    const place: Place = f < 0.25 ? "before" : f > 0.75 ? "after" : "into";
    let inside = false;
    for (let p: Node | null = onto; p; p = p.parent) inside = inside || p === dragged;
    d.onto = onto;
    d.place = place;
    d.refused = inside && !(onto === dragged && place !== "into")
      ? `${this.model!.path(dragged)} cannot go into itself or an item under it.`
      : undefined;
    const ind = this.indicator;
    ind.hidden = onto === dragged && !d.refused;
    ind.className = "drop " + place + (d.refused ? " refused" : "");
    ind.style.top = (place === "after" ? (i + 1) * rowHeight : i * rowHeight) + "px";
    ind.style.paddingLeft = 8 + Math.min(onto.depth + (place === "into" ? 1 : 0), 40) * 18 + "px";
    ind.textContent = d.refused ? "cannot go here" : place === "into" ? "into" : "";
  }

  private endDrag(): void {
    const was = this.drag?.moving;
    this.drag = null;
    if (was) this.paint();
    this.indicator.hidden = true;
    this.el.classList.remove("dragging");
  }

  /** show lays out a (new) model, keeping the selection, the collapsed items and the place: the row at the top stays there. */
  show(model: Model): void {
    const top = Math.floor(this.el.scrollTop / rowHeight);
    const anchor = this.rows[top]?.key;
    const offset = this.el.scrollTop - top * rowHeight;
    const first = this.model === null;
    this.model = model;
    this.spine = model.spine();
    // Stand-in keys of a document in parts, now filled: the selection and the folds stay.
    if (this.selected !== null) this.selected = model.resolve(this.selected);
    for (const k of [...this.collapsed]) {
      const real = model.resolve(k);
      if (real !== k) {
        this.collapsed.delete(k);
        this.collapsed.add(real);
      }
    }
    this.el.setAttribute("aria-busy", String(model.loading));
    // A selection still to arrive (a document again, in parts) stays; one that went moves to the active item.
    if (this.selected === null || (!model.byKey.has(this.selected) && !model.loading)) {
      this.selected = model.active ?? model.roots[0]?.key ?? null;
    }
    this.relayout();
    if (first) {
      this.reveal(); // the active item, where the work is
      this.paint();
      return;
    }
    const at = anchor === undefined ? -1 : this.rows[top]?.key === anchor ? top : this.rows.findIndex((r) => r.key === anchor);
    if (at >= 0 && at !== top) {
      this.el.scrollTop = at * rowHeight + offset;
      this.paint();
    }
  }

  relayout(): void {
    if (!this.model) return;
    this.rows = this.model.rows(this.collapsed, this.rows);
    this.spacer.style.height = this.rows.length * rowHeight + "px";
    this.paint();
  }

  selectedNode(): Node | null {
    return this.selected === null ? null : this.model?.byKey.get(this.selected) ?? null;
  }

  /** select makes key the selection, opening its ancestors and scrolling it into view. */
  select(key: string): void {
    const n = this.model?.byKey.get(key);
    if (!n) return;
    let opened = false;
    for (let p = n.parent; p; p = p.parent) opened = this.collapsed.delete(p.key) || opened;
    this.selected = key;
    if (opened) this.relayout();
    this.reveal();
    this.paint();
  }

  /** step moves the selection by delta rows. */
  step(delta: number): void {
    if (!this.rows.length) return;
    const i = this.rows.findIndex((r) => r.key === this.selected);
    const j = Math.max(0, Math.min(this.rows.length - 1, (i < 0 ? 0 : i) + delta));
    this.selected = this.rows[j].key;
    this.reveal();
    this.paint();
  }

  /** toggle collapses or expands n (open: true expands, false collapses). */
  toggle(n: Node, open?: boolean): void {
    const wasOpen = !this.collapsed.has(n.key);
    if ((open ?? !wasOpen) === wasOpen || !n.children.length) return;
    if (wasOpen) this.collapsed.add(n.key);
    else this.collapsed.delete(n.key);
    this.relayout();
  }

  pageRows(): number {
    return Math.max(1, Math.floor(this.el.clientHeight / rowHeight) - 1);
  }

  private reveal(): void {
    const i = this.rows.findIndex((r) => r.key === this.selected);
    if (i < 0) return;
    const top = i * rowHeight;
    if (top < this.el.scrollTop) this.el.scrollTop = top;
    else if (top + rowHeight > this.el.scrollTop + this.el.clientHeight) this.el.scrollTop = top + rowHeight - this.el.clientHeight;
  }

  private schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.paint(); });
  }

  private click(e: MouseEvent, open: boolean): void {
    const n = this.rowOf(e.target);
    if (!n || this.dragged || (e.target as HTMLElement).closest("input")) return;
    if ((e.target as HTMLElement).classList.contains("twisty")) {
      this.toggle(n);
      return;
    }
    if ((e.target as HTMLElement).classList.contains("check")) {
      if (open) return; // the second click of a double click: one toggle is enough
      this.selected = n.key;
      this.paint();
      this.on.check(n);
      return;
    }
    this.selected = n.key;
    this.paint();
    if (open) this.on.rename(n);
    else this.on.pick(n);
  }

  /** rename opens an input in n's row; Enter gives commit the title typed, Esc or leaving the row cancels. */
  rename(n: Node, commit: (title: string) => void): void {
    this.select(n.key);
    this.editing = { key: n.key, commit };
    this.paint();
  }

  private endRename(): void {
    this.editing = null;
    this.paint();
    this.el.focus();
  }

  private renameInput(n: Node): HTMLInputElement {
    const input = el("input", "rename");
    input.value = n.title;
    input.setAttribute("aria-label", "new title");
    input.addEventListener("keydown", (e) => {
      e.stopPropagation(); // the tree's keys are not the input's
      if (e.key === "Enter") {
        e.preventDefault();
        const edit = this.editing;
        this.endRename();
        if (edit && input.value !== n.title) edit.commit(input.value);
      } else if (e.key === "Escape") {
        e.preventDefault();
        this.endRename();
      }
    });
    input.addEventListener("blur", () => {
      if (this.editing?.key === n.key) this.endRename();
    });
    return input;
  }

  /** paint fills the rows in view, reusing their elements. */
  paint(): void {
    const model = this.model;
    if (!model) return;
    const first = Math.max(0, Math.floor(this.el.scrollTop / rowHeight) - overscan);
    const last = Math.min(this.rows.length, Math.ceil((this.el.scrollTop + this.el.clientHeight) / rowHeight) + overscan);
    const need = Math.max(0, last - first);
    while (this.rowsEl.length < need) {
      const r = el("div", "row");
      r.setAttribute("role", "treeitem");
      const check = el("span", "check");
      check.setAttribute("role", "checkbox");
      r.append(el("span", "twisty"), check, el("span", "path"), el("span", "mark"), el("span", "title"), el("span", "badge"), el("span", "agents"));
      this.el.append(r);
      this.rowsEl.push(r);
    }
    this.rowsEl.forEach((r, k) => {
      const n = this.rows[first + k];
      r.hidden = !n || k >= need;
      if (r.hidden) return;
      const [twisty, check, path, mark, title, badge, agents] = r.children as unknown as HTMLElement[];
      r.dataset.key = n.key;
      r.style.transform = `translateY(${(first + k) * rowHeight}px)`;
      r.style.paddingLeft = 8 + Math.min(n.depth, 40) * 18 + "px";
      r.className = "row" + (n.loaded ? "" : " pending") + (n.done ? " done" : "") + (this.spine.has(n.key) ? " spine" : "") +
        (n.key === model.active ? " active" : "") + (n.key === this.selected ? " selected" : "") +
        (this.drag?.moving && n.key === this.drag.key ? " dragged" : "");
      r.setAttribute("aria-level", String(n.depth + 1));
      // Where the row is among its siblings, which the virtual list leaves out of the DOM.
      r.setAttribute("aria-setsize", String(n.parent ? n.parent.children.length : model.roots.length));
      r.setAttribute("aria-posinset", String(n.index));
      r.setAttribute("aria-selected", String(n.key === this.selected));
      if (n.children.length) r.setAttribute("aria-expanded", String(!this.collapsed.has(n.key)));
      else r.removeAttribute("aria-expanded");
      twisty.textContent = n.children.length ? (this.collapsed.has(n.key) ? "▸" : "▾") : "";
      path.textContent = model.path(n);
      // The done state as a checkbox: a click closes or reopens (Space on the selected row too).
      check.hidden = !n.loaded;
      check.textContent = n.done ? "☑" : "☐";
      check.setAttribute("aria-checked", String(n.done));
      check.setAttribute("aria-label", n.done ? "done: click to reopen" : "open: click to close");
      check.title = n.done ? "reopen" : "close";
      mark.textContent = n.key === model.active ? "● " : "";
      if (this.editing?.key === n.key) {
        if (!(title.firstChild instanceof HTMLInputElement)) {
          const input = this.renameInput(n);
          title.replaceChildren(input);
          input.focus();
          input.select();
        }
      } else {
        title.textContent = n.loaded ? oneLine(n.title) : "…";
      }
      badge.textContent = n.notes.length ? "✎ " + n.notes.length : "";
      // Each agent whose own cursor is here (docs/cli.md, Agents), as text.
      const here = model.cursors.get(n.key);
      agents.textContent = here ? here.map((a) => "@" + a).join(" ") : "";
      agents.title = here ? "the active item of " + here.join(", ") : "";
    });
  }
}
