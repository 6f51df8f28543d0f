// The noggin as a tree, built from a Watch message's document.
import type { Document } from "./gen/noggin/v1/noggin_pb";

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
}

export class Model {
  readonly byKey = new Map<string, Node>();
  readonly roots: Node[] = [];
  readonly active: string | undefined;
  /** cursors maps an item's key to the agents whose own active item it is. */
  readonly cursors = new Map<string, string[]>();

  constructor(doc: Document) {
    this.active = doc.active;
    for (const c of doc.cursors) {
      if (c.key !== undefined) this.cursors.set(c.key, [...(this.cursors.get(c.key) ?? []), c.agent]);
    }
    const parents: (string | undefined)[] = [];
    for (const it of doc.items) {
      this.byKey.set(it.key, {
        key: it.key, title: it.title, done: it.done, createdAt: it.createdAt,
        notes: it.notes.map((n) => ({ timestamp: n.timestamp, text: n.text })),
        parent: null, children: [], index: 0, depth: 0,
      });
      parents.push(it.parentKey);
    }
    doc.items.forEach((it, i) => {
      const n = this.byKey.get(it.key)!;
      const p = parents[i] === undefined ? undefined : this.byKey.get(parents[i]!);
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

  /** rows is the visible rows in tree order: the children of collapsed items are left out. */
  rows(collapsed: Set<string>): Node[] {
    const out: Node[] = [];
    const stack: Node[] = [];
    for (let i = this.roots.length - 1; i >= 0; i--) stack.push(this.roots[i]);
    while (stack.length) {
      const n = stack.pop()!;
      out.push(n);
      if (collapsed.has(n.key)) continue;
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
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
