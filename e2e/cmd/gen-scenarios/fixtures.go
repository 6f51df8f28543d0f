package main

import (
	"fmt"
	"strings"
)

// it is one fixture item.
type it struct {
	key, parent, title string
	done               bool
	notes              []string // note texts (timestamped T0), "closed" for close notes
	noCreatedAt        bool
}

const t0 = "2026-01-01T00:00:00.000Z"

// doc renders a fixture document in the layout the tools write.
func doc(active string, items ...it) string {
	var b strings.Builder
	act := "null"
	if active != "" {
		act = active
	}
	fmt.Fprintf(&b, "schemaVersion: 1\nactive: %s\n", act)
	if len(items) == 0 {
		b.WriteString("items: []\n")
		return b.String()
	}
	b.WriteString("items:\n")
	for _, i := range items {
		p := "null"
		if i.parent != "" {
			p = i.parent
		}
		fmt.Fprintf(&b, "  - key: %s\n    parentKey: %s\n    title: %s\n    done: %v\n", i.key, p, i.title, i.done)
		if !i.noCreatedAt {
			fmt.Fprintf(&b, "    createdAt: '%s'\n", t0)
		}
		if len(i.notes) == 0 {
			b.WriteString("    notes: []\n")
			continue
		}
		b.WriteString("    notes:\n")
		for _, n := range i.notes {
			fmt.Fprintf(&b, "      - timestamp: '%s'\n        text: %s\n", t0, n)
		}
	}
	return b.String()
}

// The named fixtures of docs/cli.md.
var (
	// F1: /1 root1 (active) {alpha, beta {beta-kid}}, /2 root2.
	f1Items = []it{
		{key: "k-root1", title: "root1"},
		{key: "k-alpha", parent: "k-root1", title: "alpha"},
		{key: "k-beta", parent: "k-root1", title: "beta"},
		{key: "k-betakid", parent: "k-beta", title: "beta-kid"},
		{key: "k-root2", title: "root2"},
	}
	F1 = doc("k-root1", f1Items...)
	// F1 with the cursor elsewhere.
	F1a = func(active string) string { return doc(active, f1Items...) }
	// F2: /1 root1 {alpha {alpha-kid}, beta (active) {beta-kid}, gamma}, /2 root2.
	f2Items = []it{
		{key: "k-root1", title: "root1"},
		{key: "k-alpha", parent: "k-root1", title: "alpha"},
		{key: "k-alphakid", parent: "k-alpha", title: "alpha-kid"},
		{key: "k-beta", parent: "k-root1", title: "beta"},
		{key: "k-betakid", parent: "k-beta", title: "beta-kid"},
		{key: "k-gamma", parent: "k-root1", title: "gamma"},
		{key: "k-root2", title: "root2"},
	}
	F2  = doc("k-beta", f2Items...)
	F2a = func(active string) string { return doc(active, f2Items...) }
	// F3: /1 only (active).
	F3 = doc("k-only", it{key: "k-only", title: "only"})
	// F4: /1 a, /2 b, no active item.
	F4 = doc("", it{key: "k-a", title: "a"}, it{key: "k-b", title: "b"})
	// F5: /1 parent {kid (active)}.
	F5 = doc("k-kid", it{key: "k-parent", title: "parent"}, it{key: "k-kid", parent: "k-parent", title: "kid"})
	// Deep: /1 root (active) {kid {grandkid}}.
	Deep = doc("k-root", it{key: "k-root", title: "root"}, it{key: "k-kid", parent: "k-root", title: "kid"},
		it{key: "k-gk", parent: "k-kid", title: "grandkid"})
	// Ship: /1 ship {spec, tests, docs {README, SKILL (active)}}, /2 followups.
	Ship = doc("k-skill",
		it{key: "k-ship", title: "ship"},
		it{key: "k-spec", parent: "k-ship", title: "spec"},
		it{key: "k-tests", parent: "k-ship", title: "tests"},
		it{key: "k-docs", parent: "k-ship", title: "docs"},
		it{key: "k-readme", parent: "k-docs", title: "README"},
		it{key: "k-skill", parent: "k-docs", title: "SKILL"},
		it{key: "k-followups", title: "followups"})
	// Src: alpha {alpha-child (done, closed note)}, beta.
	Src = doc("",
		it{key: "s-alpha", title: "alpha"},
		it{key: "s-child", parent: "s-alpha", title: "alpha-child", done: true, notes: []string{"closed"}},
		it{key: "s-beta", title: "beta"})
	Empty = doc("")
)
