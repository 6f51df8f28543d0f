package main

import (
	"encoding/json"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README's performance section from results.json")

// TestReadmePerformance checks that the root README's performance table
// is the committed report's (bench/results.json): make bench-report
// writes both, and a hand edit of either fails here. With -update it
// rewrites the README's section from results.json instead.
func TestReadmePerformance(t *testing.T) {
	js, err := os.ReadFile("results.json")
	if err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(js, &r); err != nil {
		t.Fatal(err)
	}
	const path = "../README.md"
	if *update {
		if err := writeReadmeSection(path, r); err != nil {
			t.Fatal(err)
		}
	}
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, ok := withReadmeSection(readme, readmeSection(r))
	if !ok {
		t.Fatalf("README.md has no %q … %q markers", readmeBegin, readmeEnd)
	}
	if string(want) != string(readme) {
		t.Errorf("README.md's performance section is not bench/results.json's (make bench-report, or go test ./bench -run TestReadmePerformance -update):\n%s", readmeSection(r))
	}
}
