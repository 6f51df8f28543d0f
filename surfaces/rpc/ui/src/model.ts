// The noggin as a tree, built from a Watch message's document.
import type { Change, Cursor, Document, DocumentPart, DocumentShape, Item } from "./gen/noggin/v1/noggin_pb";

/** pending starts the stand-in key of an item whose part has not arrived yet. */
const pending = "\u0000pending:";

export interface Note {
  timestamp?: string;
  text: string;
}

export interface Node {
  key: string;
  title: string;
  done: boolean;
  createdAt?: string;
  notes: Note[];
  parent: Node | null;
  children: Node[];
  index: number; // 1-based position among its siblings
  depth: number;
  loaded: boolean; // false: its place is known, its item not yet (a document in parts)
}

export class Model {
  readonly byKey = new Map<string, Node>();
  readonly roots: Node[] = [];
  active: string | undefined;
  /** cursors maps an item's key to the agents whose own active item it is. */
  readonly cursors = new Map<string, string[]>();

  /** The nodes in document order while a document in parts arrives (null once whole). */
  private nodes: Node[] | null = null;
  /** The real keys of the stand-in keys filled since the model was made. */
  readonly aliases = new Map<string, string>();

  /** The model of a document; of its first rows only when it comes in parts (shape: every item's place). */
  constructor(doc: Document, shape?: DocumentShape) {
    this.active = doc.active;
    this.setCursors(doc.cursors);
    let nodes: Node[];
    let parents: number[];
    if (shape) {
      nodes = shape.parents.map((_, i) => placeholder(i));
      parents = shape.parents;
      shape.indexes.forEach((at, k) => fill(nodes[at], doc.items[k]));
      if (shape.indexes.length < nodes.length) this.nodes = nodes; // parts to come (none when the window holds all)
    } else {
      nodes = doc.items.map(node);
      const at = new Map(doc.items.map((it, i) => [it.key, i]));
      parents = doc.items.map((it) => (it.parentKey === undefined ? 0 : (at.get(it.parentKey) ?? -1) + 1));
    }
    for (const n of nodes) this.byKey.set(n.key, n);
    nodes.forEach((n, i) => {
      const p = parents[i] ? nodes[parents[i] - 1] : undefined;
      const siblings = p ? p.children : this.roots;
      n.parent = p ?? null;
      siblings.push(n);
      n.index = siblings.length;
    });
    // Depths top-down, without recursion (a chain may be very deep).
    const stack = [...this.roots];
    while (stack.length) {
      const n = stack.pop()!;
      for (const c of n.children) {
        c.depth = n.depth + 1;
        stack.push(c);
      }
    }
  }

  /** loading says whether parts of the document are still to come. */
  get loading(): boolean {
    return this.nodes !== null;
  }

  /** loaded counts the items whose part has arrived. */
  get loadedCount(): number {
    return this.nodes ? this.nodes.filter((n) => n.loaded).length : this.byKey.size;
  }

  /** addPart fills in the items of a part of the document. */
  addPart(part: DocumentPart): void {
    if (!this.nodes) return;
    part.items.forEach((it, k) => {
      const n = this.nodes![part.start + k];
      if (!n || n.loaded) return;
      const stand = n.key;
      this.byKey.delete(stand);
      fill(n, it);
      this.byKey.set(n.key, n);
      this.aliases.set(stand, n.key);
    });
    if (part.last) this.nodes = null;
  }

  /** resolve is key, or the real key of a stand-in key now filled. */
  resolve(key: string): string {
    return this.aliases.get(key) ?? key;
  }

  private setCursors(cursors: Cursor[]): void {
    this.cursors.clear();
    for (const c of cursors) {
      if (c.key !== undefined) this.cursors.set(c.key, [...(this.cursors.get(c.key) ?? []), c.agent]);
    }
  }

  /** apply brings the model to the state after an incremental Watch
   * message: its changes (removed, added and moved in the document's
   * order, updated), the items they touch as they are now, and every
   * cursor. Only the sibling lists the changes touch are renumbered. */
  apply(changes: Change[], items: Item[], cursors: Cursor[]): void {
    const now = new Map(items.map((it) => [it.key, it]));
    const lists = new Set<Node[]>();
    const siblings = (n: Node) => (n.parent ? n.parent.children : this.roots);
    const detach = (n: Node) => {
      const list = siblings(n);
      const i = list.indexOf(n);
      if (i >= 0) list.splice(i, 1);
      lists.add(list);
    };
    for (const c of changes) {
      const k = c.kind;
      if (k.case === "removed" || k.case === "moved") {
        const n = this.byKey.get(k.value.key);
        if (!n) continue;
        detach(n);
        if (k.case === "removed") this.byKey.delete(n.key);
      } else if (k.case === "added" && !this.byKey.has(k.value.key)) {
        const it = now.get(k.value.key);
        if (it) this.byKey.set(it.key, node(it)); // placed below, once every new parent exists
      } else if (k.case === "activeChanged") {
        this.active = k.value.to;
      }
    }
    for (const it of items) {
      const n = this.byKey.get(it.key);
      if (!n) continue;
      n.title = it.title;
      n.done = it.done;
      n.createdAt = it.createdAt;
      n.notes = it.notes.map((x) => ({ timestamp: x.timestamp, text: x.text }));
    }
    const placed: Node[] = [];
    for (const c of changes) {
      const k = c.kind;
      const slot = k.case === "added" ? k.value : k.case === "moved" ? k.value.to : undefined;
      const n = k.case === "added" || k.case === "moved" ? this.byKey.get(k.value.key) : undefined;
      if (!slot || !n) continue;
      n.parent = slot.parentKey === undefined ? null : this.byKey.get(slot.parentKey) ?? null;
      const list = siblings(n);
      list.splice(Math.min(slot.position, list.length), 0, n);
      lists.add(list);
      placed.push(n);
    }
    for (const list of lists) list.forEach((n, i) => (n.index = i + 1));
    for (const n of placed) {
      let depth = 0;
      for (let p = n.parent; p; p = p.parent) depth++;
      n.depth = depth;
      const stack = [n];
      while (stack.length) {
        const m = stack.pop()!;
        for (const c of m.children) {
          c.depth = m.depth + 1;
          stack.push(c);
        }
      }
    }
    this.setCursors(cursors);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** path is the absolute path of n, as every verb takes it: /1/2. */
  path(n: Node): string {
    const parts: number[] = [];
    for (let m: Node | null = n; m; m = m.parent) parts.push(m.index);
    return "/" + parts.reverse().join("/");
  }

  /** spine is the set of keys from a root down to the active item. */
  spine(): Set<string> {
    const s = new Set<string>();
    for (let m = this.active ? this.byKey.get(this.active) ?? null : null; m; m = m.parent) s.add(m.key);
    return s;
  }

  /** rows is the visible rows in tree order: the children of collapsed items are left out (into
   * out, reused, when given: a big tree's list is not allocated again on every change). */
  rows(collapsed: Set<string>, out: Node[] = []): Node[] {
    out.length = 0;
    // Depth first without recursion (a chain may be very deep): the sibling
    // lists being walked, and where each one is.
    const lists: Node[][] = [this.roots];
    const at: number[] = [0];
    const all = collapsed.size === 0;
    while (lists.length) {
      const top = lists.length - 1;
      const list = lists[top];
      const i = at[top];
      if (i === list.length) {
        lists.pop();
        at.pop();
        continue;
      }
      at[top] = i + 1;
      const n = list[i];
      out.push(n);
      if (n.children.length && (all || !collapsed.has(n.key))) {
        lists.push(n.children);
        at.push(0);
      }
    }
    return out;
  }

  /** descendants counts the items under n. */
  descendants(n: Node): number {
    let count = 0;
    const stack = [...n.children];
    while (stack.length) {
      const m = stack.pop()!;
      count++;
      for (const c of m.children) stack.push(c);
    }
    return count;
  }
}

function node(it: Item): Node {
  return {
    key: it.key, title: it.title, done: it.done, createdAt: it.createdAt,
    notes: it.notes.map((n) => ({ timestamp: n.timestamp, text: n.text })),
    parent: null, children: [], index: 0, depth: 0, loaded: true,
  };
}

function placeholder(i: number): Node {
  return { key: pending + i, title: "", done: false, notes: [], parent: null, children: [], index: 0, depth: 0, loaded: false };
}

function fill(n: Node, it: Item): void {
  Object.assign(n, { key: it.key, title: it.title, done: it.done, createdAt: it.createdAt, loaded: true,
    notes: it.notes.map((x) => ({ timestamp: x.timestamp, text: x.text })) });
}
