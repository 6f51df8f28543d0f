// The page of one noggin: the tree, the selected item's details, the verbs
// by keyboard and by mouse, and live updates through Watch.
import type { JsonObject } from "@bufbuild/protobuf";
import { call, client, type Envelope, isAuthError, message } from "./api";
import { Model, type Node } from "./model";
import { el, oneLine, timeEl, visible } from "./text";
import { type Place, TreeView } from "./tree";

interface Verb {
  key: string; // the shortcut, as KeyboardEvent.key
  label: string;
  run: () => void;
}

/** firstRows is the rows on either side of the active item the first Watch message carries (the
 * rest of a big noggin follows in parts): more than a tall window shows. */
const firstRows = 150;

export class NogginPage {
  readonly el = el("div", "page");
  private readonly tree: TreeView;
  private readonly details = el("aside", "details");
  private readonly status = el("span", "status", "connecting…");
  private readonly alert = el("div", "alert");
  private readonly bar = el("form", "bar");
  private readonly verbs: Verb[];
  private panel: "details" | "find" | "log" = "details";
  private model: Model | null = null;
  private pending: string | null = null; // the key to select once the stream has it
  private calls = 0; // verbs sent and not yet answered (data-calls, for tests and styles)
  private menu: HTMLElement | null = null; // the open context menu
  private frame = 0; // the animation frame of a scheduled redraw (0: none)

  constructor(private readonly name: string, private readonly onAuth: () => void) {
    this.tree = new TreeView({
      pick: () => this.showDetails(),
      check: (n) => this.toggleDone(n),
      rename: (n) => this.rename(n),
      menu: (n, x, y) => this.openMenu(n, x, y),
      drop: (n, onto, place) => this.drop(n, onto, place),
      refuse: (why) => this.say(why),
    });
    this.alert.setAttribute("role", "alert");
    this.bar.hidden = true;
    const v = (key: string, label: string, run: () => void): Verb => ({ key, label, run });
    this.verbs = [
      v("p", "push", () => this.ask("Push a child of the active item:", "", (title) => this.run("push", { title }))),
      v("a", "add", () => this.withSelected((n) => this.ask(`Add under ${this.path(n)}:`, "", (title) => this.run("add", { title, into: this.target(n) }, n)))),
      v("s", "add after", () => this.withSelected((n) => this.ask(`Add after ${this.path(n)}:`, "", (title) => this.run("add", { title, after: this.target(n) }, n)))),
      v("b", "add before", () => this.withSelected((n) => this.ask(`Add before ${this.path(n)}:`, "", (title) => this.run("add", { title, before: this.target(n) }, n)))),
      v("Enter", "goto", () => this.withSelected((n) => this.run("goto", { path: this.target(n) }))),
      v("d", "done", () => this.withSelected((n) => this.run("done", { path: this.target(n) }))),
      v("r", "reopen", () => this.withSelected((n) => this.run("edit", { path: this.target(n), state: "open" }))),
      v("o", "pop", () => this.run("pop", {})),
      v("e", "edit", () => this.withSelected((n) => this.ask(`New title of ${this.path(n)}:`, n.title, (title) => this.run("edit", { path: this.target(n), title }, n)))),
      v("n", "note", () => this.withSelected((n) => this.ask(`Note on ${this.path(n)}:`, "", (text) => this.run("note", { path: this.target(n), text }, n)))),
      v("m", "move", () => this.withSelected((n) => this.ask(`Move ${this.path(n)} (before, after or into a path, e.g. "into /2"):`, "", (where) => this.move(n, where)))),
      v("Delete", "delete", () => this.withSelected((n) => this.confirmDelete(n))),
      v("/", "find", () => this.ask("Find (every word, any case):", "", (query) => this.find(query))),
      v("l", "log", () => void this.showLog()),
      v("z", "undo", () => this.run("undo", {})),
      v("y", "redo", () => this.run("redo", {})),
    ];
    const head = el("header");
    const home = el("a", "home", "noggin");
    home.href = "/ui/";
    head.append(home, el("h1", "", oneLine(name)), this.status);
    const tools = el("nav", "tools");
    tools.setAttribute("aria-label", "verbs");
    for (const verb of this.verbs) {
      const b = el("button", "", verb.label);
      b.type = "button";
      b.title = `${verb.label} (${keyName(verb.key)})`;
      b.dataset.verb = verb.label;
      b.addEventListener("click", () => {
        verb.run();
        if (this.bar.hidden) this.focus(); // the keys go on working
      });
      tools.append(b);
    }
    const keys = el("footer", "keys",
      "↑↓ select · ←→ fold · " + this.verbs.map((x) => `${keyName(x.key)} ${x.label}`).join(" · ") +
      " · Ctrl+Enter add child · Shift+Enter add after · F2 rename · Space done/reopen · Ctrl+Shift+Z redo · Alt+↑↓←→ move · Shift+F10 menu · drag to move · Esc cancel");
    const main = el("main");
    main.append(this.tree.el, this.details);
    this.el.append(head, tools, this.alert, this.bar, main, keys);
    this.tree.el.addEventListener("keydown", (e) => this.key(e));
    this.bar.addEventListener("keydown", (e) => {
      if (e.key === "Escape") this.closeBar();
    });
  }

  /** start watches the noggin until the page goes. */
  async start(): Promise<void> {
    for (;;) {
      try {
        for await (const res of client.watch({ location: this.name, incremental: true, window: firstRows })) {
          if (res.error) this.say(res.error.message);
          if (res.document) this.model = new Model(res.document, res.shape);
          else if (res.part && this.model) this.model.addPart(res.part);
          else if (this.model && !res.error) this.model.apply(res.changes, res.items, res.cursors);
          else continue;
          this.scheduleRedraw();
          // A document in parts: paint what came, and answer keys, before the next part.
          if (this.model.loading) await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
        }
      } catch (e) {
        if (isAuthError(e)) {
          this.onAuth();
          return;
        }
        this.status.textContent = "reconnecting…";
        this.say(message(e));
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  /** scheduleRedraw shows the model at the next frame: the messages that came meanwhile are laid out once. */
  private scheduleRedraw(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.redraw();
    });
  }

  private redraw(): void {
    const model = this.model;
    if (!model) return;
    this.tree.show(model);
    if (this.pending && model.byKey.has(this.pending)) {
      this.tree.select(this.pending);
      this.pending = null;
    }
    this.status.textContent = model.loading ? `loading · ${model.loadedCount} of ${model.size} items` : `live · ${model.size} items`;
    this.el.dataset.items = String(model.size);
    this.el.dataset.loading = String(model.loading);
    if (this.panel === "details") this.showDetails();
  }

  focus(): void {
    this.tree.el.focus();
  }

  /** path is n's path in the noggin as the page has it now (n may come from an earlier model). */
  private path(n: Node): string {
    return this.model!.path(this.model!.byKey.get(n.key) ?? n);
  }

  /** target names n in a verb's arguments by its key, @KEY: the write lands
   * on n even if another writer moved or inserted items before it. */
  private target(n: Node): string {
    return "@" + n.key;
  }

  private withSelected(f: (n: Node) => void): void {
    const n = this.tree.selectedNode();
    if (n?.loaded) f(n);
    else this.say(n ? "That item is still loading." : "Select an item first.");
  }

  private key(e: KeyboardEvent): void {
    if (e.key === "ContextMenu" || (e.shiftKey && e.key === "F10")) {
      e.preventDefault();
      const n = this.tree.selectedNode();
      const at = n && this.tree.rowRect(n.key);
      if (n && at) this.openMenu(n, at.left + 40, at.bottom);
      return;
    }
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey || e.shiftKey)) {
      // The original's tree: Ctrl+Enter adds a child, Shift+Enter a sibling after (Enter stays goto).
      e.preventDefault();
      this.verbs.find((v) => v.label === (e.shiftKey ? "add after" : "add"))!.run();
      return;
    }
    if (e.ctrlKey || e.metaKey) {
      // Ctrl+Z undo; Ctrl+Shift+Z (Shift makes the key "Z") and Ctrl+Y redo; Cmd on macOS.
      const k = e.key.toLowerCase();
      if (k === "z" || k === "y") {
        e.preventDefault();
        this.run(k === "z" && !e.shiftKey ? "undo" : "redo", {});
      }
      return;
    }
    const n = this.tree.selectedNode();
    if (e.altKey && n && e.key.startsWith("Arrow")) {
      e.preventDefault();
      this.nudge(n, e.key);
      return;
    }
    switch (e.key) {
      case "ArrowDown": this.tree.step(1); break;
      case "ArrowUp": this.tree.step(-1); break;
      case "PageDown": this.tree.step(this.tree.pageRows()); break;
      case "PageUp": this.tree.step(-this.tree.pageRows()); break;
      case "Home": this.tree.step(-Infinity); break;
      case "End": this.tree.step(Infinity); break;
      case "ArrowRight":
        if (n && n.children.length && this.tree.collapsed.has(n.key)) this.tree.toggle(n, true);
        else this.tree.step(1);
        break;
      case "ArrowLeft":
        if (n && n.children.length && !this.tree.collapsed.has(n.key)) this.tree.toggle(n, false);
        else if (n?.parent) this.tree.select(n.parent.key);
        break;
      case "Escape": this.panel = "details"; break;
      case "F2": // rename in place
        if (n) this.rename(n);
        break;
      case " ": // Space closes the selected item, or reopens a done one
        if (n) this.toggleDone(n);
        break;
      case "Backspace": this.verbs.find((v) => v.label === "delete")!.run(); break;
      default: {
        const verb = this.verbs.find((v) => v.key === e.key);
        if (!verb) return;
        verb.run();
      }
    }
    e.preventDefault();
    if (this.panel === "details") this.showDetails();
  }

  /** rename opens an input in n's row; Enter saves the title with one edit, Esc cancels. */
  private rename(n: Node): void {
    if (!n.loaded) {
      this.say("That item is still loading.");
      return;
    }
    this.tree.rename(n, (title) => void this.run("edit", { path: this.target(n), title }, n));
  }

  /** drop moves n before, after or into onto (a row let go after a drag). */
  private drop(n: Node, onto: Node, place: Place): void {
    if (!onto.loaded) {
      this.say("That item is still loading.");
      return;
    }
    void this.run("move", { path: this.target(n), [place]: this.target(onto) }, n);
  }

  /** openMenu opens the verbs of n as a menu at x, y (the page's coordinates): arrows move in it,
   * Enter or a click runs one, Esc or a click elsewhere closes it. */
  private openMenu(n: Node, x: number, y: number): void {
    this.closeMenu(false);
    this.tree.select(n.key);
    this.showDetails();
    const byLabel = (label: string) => () => this.verbs.find((v) => v.label === label)!.run();
    const entries: [string, string, () => void][] = [
      ["Add child", "a", byLabel("add")],
      ["Add after", "s", byLabel("add after")],
      ["Add before", "b", byLabel("add before")],
      ["Go to", "Enter", byLabel("goto")],
      [n.done ? "Reopen" : "Done", "Space", () => this.toggleDone(n)],
      ["Rename", "F2", () => this.rename(n)],
      ["Note…", "n", byLabel("note")],
      ["Move…", "m", byLabel("move")],
      ["Delete…", "Del", byLabel("delete")],
      ["Copy path", "", () => void this.copy(this.path(n))],
      ["Copy key", "", () => void this.copy(n.key)],
    ];
    const menu = el("div", "menu");
    menu.setAttribute("role", "menu");
    menu.setAttribute("aria-label", "verbs of " + this.path(n));
    const items = entries.map(([label, key, act]) => {
      const item = el("div", "menuitem");
      item.setAttribute("role", "menuitem");
      item.tabIndex = -1;
      item.append(el("span", "", label), el("kbd", "", key));
      item.addEventListener("click", () => {
        this.closeMenu(true);
        act();
      });
      return item;
    });
    menu.append(...items);
    menu.addEventListener("keydown", (e) => {
      e.stopPropagation(); // the menu's keys are not the tree's
      const i = items.indexOf(document.activeElement as HTMLDivElement);
      const to = (j: number) => items[(j + items.length) % items.length].focus();
      switch (e.key) {
        case "ArrowDown": to(i + 1); break;
        case "ArrowUp": to(i - 1); break;
        case "Home": to(0); break;
        case "End": to(items.length - 1); break;
        case "Enter":
        case " ":
          if (i >= 0) items[i].click();
          break;
        case "Escape":
        case "Tab":
          this.closeMenu(true);
          break;
        default: return;
      }
      e.preventDefault();
    });
    document.body.append(menu);
    // Inside the window, whatever the size of the menu.
    const w = menu.offsetWidth, h = menu.offsetHeight;
    menu.style.left = Math.max(0, Math.min(x, innerWidth - w)) + "px";
    menu.style.top = Math.max(0, Math.min(y, innerHeight - h)) + "px";
    this.menu = menu;
    items[0].focus();
    const away = (e: MouseEvent) => {
      if (!menu.contains(e.target as HTMLElement | null)) this.closeMenu(false);
    };
    setTimeout(() => document.addEventListener("mousedown", away, { once: true }));
  }

  /** closeMenu closes the open menu (focus: give the keys back to the tree). */
  private closeMenu(focus: boolean): void {
    this.menu?.remove();
    this.menu = null;
    if (focus) this.focus();
  }

  /** copy puts text on the clipboard and says so. */
  private async copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.say("Copied " + text, true);
    } catch {
      this.say("Could not copy (the browser refused): " + text);
    }
  }

  /** toggleDone closes n, or reopens it when it is done, without moving the active item (edit; a
   * parent with open children says so, as done does). */
  private toggleDone(n: Node): void {
    void this.run("edit", { path: this.target(n), state: n.done ? "open" : "done" }, n);
  }

  /** nudge moves n one step: Alt+↑ before its previous sibling, Alt+↓ after its next, Alt+← after its parent, Alt+→ into its previous sibling. */
  private nudge(n: Node, key: string): void {
    const siblings = n.parent ? n.parent.children : this.model!.roots;
    const prev = siblings[n.index - 2];
    const next = siblings[n.index];
    const to: JsonObject | null =
      key === "ArrowUp" && prev ? { before: this.path(prev) }
      : key === "ArrowDown" && next ? { after: this.path(next) }
      : key === "ArrowLeft" && n.parent ? { after: this.path(n.parent) }
      : key === "ArrowRight" && prev ? { into: this.path(prev) }
      : null;
    if (to) this.run("move", { path: this.target(n), ...to }, n);
  }

  private move(n: Node, where: string): void {
    const m = /^\s*(before|after|into)\s+(\S+)\s*$/.exec(where);
    if (!m) {
      this.say('Say where: "before PATH", "after PATH" or "into PATH".');
      return;
    }
    this.run("move", { path: this.target(n), [m[1]]: m[2] }, n);
  }

  private confirmDelete(n: Node): void {
    const below = this.model!.descendants(n);
    const what = below ? `${this.path(n)} and the ${below} items under it` : this.path(n);
    this.ask(`Delete ${what}? Type "yes":`, "", (answer) => {
      if (answer.trim().toLowerCase() === "yes") this.run("delete", { path: this.target(n), recursive: below > 0 }, n);
    });
  }

  /** run calls a verb on this noggin; the Watch stream brings the change. */
  private run(verb: string, args: JsonObject, about?: Node): Promise<Envelope | undefined> {
    if (about && !about.loaded) {
      this.say("That item is still loading.");
      return Promise.resolve(undefined);
    }
    if (about && !this.model?.byKey.has(about.key)) {
      // The item went (another writer): say so rather than send a call core refuses.
      this.say("That item is no longer in the noggin.");
      return Promise.resolve(undefined);
    }
    this.el.dataset.calls = String(++this.calls);
    return call(verb, { noggin: this.name, ...args })
      .then((env) => this.answered(env, about))
      .catch((e) => {
        if (isAuthError(e)) this.onAuth();
        else this.say(message(e));
        return undefined;
      })
      .finally(() => (this.el.dataset.calls = String(--this.calls)));
  }

  private answered(env: Envelope, about?: Node): Envelope {
    if (env.status === "error") this.say(env.error?.message ?? "failed");
    else this.say("");
    // A moved item stays selected; else the new or now active item the answer names.
    const target: unknown = env.verb === "move" && about ? about.key : env.data?.targetKey ?? env.data?.view?.targetKey;
    if (env.status === "ok" && typeof target === "string" && env.verb !== "note" && env.verb !== "edit") {
      // The new, moved or now active item is selected once the stream has it.
      if (this.model?.byKey.has(target)) this.tree.select(target);
      if (!this.model?.byKey.has(target) || env.verb === "move") this.pending = target; // revealed where the stream puts it
      this.showDetails();
    }
    if (this.panel === "log") void this.showLog();
    return env;
  }

  /** say shows a problem (or, info, a plain message) above the tree. */
  private say(text: string, info = false): void {
    this.alert.textContent = visible(text);
    this.alert.hidden = !text;
    this.alert.classList.toggle("info", info);
  }

  /** ask shows the bar with a question; answer gets the non-empty reply. */
  private ask(question: string, initial: string, answer: (reply: string) => void): void {
    this.bar.replaceChildren();
    const label = el("label", "", visible(question));
    const input = el("input");
    input.value = initial;
    input.setAttribute("aria-label", question);
    const ok = el("button", "", "OK");
    const cancel = el("button", "", "Cancel");
    cancel.type = "button";
    cancel.addEventListener("click", () => this.closeBar());
    label.append(input);
    this.bar.append(label, ok, cancel);
    this.bar.onsubmit = (e) => {
      e.preventDefault();
      const reply = input.value;
      this.closeBar();
      answer(reply); // core says whether it will do (Esc cancels)
    };
    this.bar.hidden = false;
    input.focus();
    input.select();
  }

  private closeBar(): void {
    this.bar.hidden = true;
    this.bar.replaceChildren();
    this.focus();
  }

  private showDetails(): void {
    this.panel = "details";
    const n = this.tree.selectedNode();
    const d = this.details;
    // A note being typed on this item survives the redraw of a live update.
    const typing = d.querySelector<HTMLTextAreaElement>(".note-form textarea");
    const draft = typing && typing.dataset.key === n?.key ? typing : null;
    const focused = draft !== null && document.activeElement === draft;
    const [from, to] = [draft?.selectionStart ?? 0, draft?.selectionEnd ?? 0];
    d.replaceChildren();
    if (n && !n.loaded) {
      d.append(el("p", "empty", "Loading…"));
      return;
    }
    if (!n || !this.model) {
      d.append(el("p", "empty", this.model?.size ? "Nothing selected." : "This noggin is empty: p pushes the first item."));
      return;
    }
    d.append(el("h2", "", visible(n.title)));
    const facts = el("dl");
    const fact = (k: string, v: string) => facts.append(el("dt", "", k), el("dd", "", v));
    fact("path", this.path(n));
    fact("state", (n.done ? "done" : "open") + (n.key === this.model.active ? ", active" : ""));
    if (n.createdAt) {
      facts.append(el("dt", "", "created"));
      const dd = el("dd");
      dd.append(timeEl(n.createdAt));
      facts.append(dd);
    }
    fact("key", n.key);
    d.append(facts);
    const notes = el("ol", "notes");
    for (const note of n.notes) {
      const li = el("li");
      li.append(timeEl(note.timestamp), el("p", "", visible(note.text)));
      notes.append(li);
    }
    d.append(el("h3", "", n.notes.length ? `Notes (${n.notes.length})` : "No notes"), notes);
    const form = el("form", "note-form");
    const text = draft ?? el("textarea");
    text.rows = 3;
    text.dataset.key = n.key;
    text.setAttribute("aria-label", "new note");
    const add = el("button", "", "Add note");
    form.append(text, add);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.run("note", { path: this.target(n), text: text.value }, n).then((env) => { // core says whether the text will do
        if (env?.status === "ok") text.value = "";
      });
    });
    d.append(form);
    if (focused) {
      text.focus();
      text.setSelectionRange(from, to);
    }
  }

  private async find(query: string): Promise<void> {
    const env = await call("find", { noggin: this.name, query }).catch((e) => ({ status: "error", verb: "find", error: { code: "", message: message(e) } }) as Envelope);
    if (env.status === "error") {
      this.say(env.error?.message ?? "find failed");
      return;
    }
    this.say("");
    this.panel = "find";
    const d = this.details;
    d.replaceChildren(el("h2", "", `Found ${env.data.total} for “${oneLine(query)}”`));
    const list = el("ol", "matches");
    for (const m of env.data.matches as { key: string; path: string; title: string; done?: boolean }[]) {
      const li = el("li");
      const b = el("button", "link", `${m.path} ${m.done ? "✓ " : ""}${oneLine(m.title)}`);
      b.type = "button";
      b.addEventListener("click", () => {
        this.tree.select(m.key);
        this.showDetails();
        this.focus();
      });
      li.append(b);
      list.append(li);
    }
    d.append(list, this.closeButton());
  }

  private async showLog(): Promise<void> {
    const env = await call("log", { noggin: this.name, limit: 50 }).catch((e) => ({ status: "error", verb: "log", error: { code: "", message: message(e) } }) as Envelope);
    if (env.status === "error") {
      this.say(env.error?.message ?? "log failed");
      return;
    }
    this.panel = "log";
    const d = this.details;
    d.replaceChildren(el("h2", "", "History"));
    const undo = el("button", "", "Undo (z)");
    undo.type = "button";
    undo.addEventListener("click", () => this.run("undo", {}));
    const redo = el("button", "", "Redo (y)");
    redo.type = "button";
    redo.addEventListener("click", () => this.run("redo", {}));
    d.append(undo, redo);
    const list = el("ol", "log");
    for (const e of env.data.entries as { seq: number; time: string; verb: string; agent?: string; summary: string }[]) {
      const li = el("li");
      li.append(timeEl(e.time), el("span", "verb", e.verb));
      if (e.agent) li.append(el("span", "agent", "by " + visible(e.agent)));
      li.append(el("span", "", visible(e.summary)));
      list.append(li);
    }
    if (env.data.missing) list.append(el("li", "", "No history yet."));
    d.append(list, this.closeButton());
  }

  private closeButton(): HTMLElement {
    const b = el("button", "", "Close (Esc)");
    b.type = "button";
    b.addEventListener("click", () => {
      this.showDetails();
      this.focus();
    });
    return b;
  }
}

function keyName(k: string): string {
  return k === "Enter" ? "Enter" : k === "Delete" ? "Del" : k;
}
