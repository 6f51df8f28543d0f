// Regenerates the reference outputs used by TestJSYAMLGolden.
// Usage: NODE_PATH=<dir containing js-yaml 4.1.0> node dump.js cases.jsonl > dumps.json
// Input: one JSON document per line. Output: a JSON array with, per case,
// {yaml: js-yaml 4.1 dump(doc, {lineWidth: 100}),
//  json: JSON.stringify(doc, null, 2) + "\n"}.
const fs = require('fs');
const yaml = require('js-yaml');
const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
const out = lines.map((l) => {
  const doc = JSON.parse(l);
  return { yaml: yaml.dump(doc, { lineWidth: 100 }), json: JSON.stringify(doc, null, 2) + '\n' };
});
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
