// Regenerates what js-yaml 4.1 load() returns for hand-written inputs.
// Usage: NODE_PATH=<dir containing js-yaml 4.1.0> node load.js load-cases.json > loads.jsonl
// Output, one JSON line per case: {"value": <loaded value>} or {"undefined": true} or
// {"error": <message>}. Dates (unquoted timestamps) are not expected in
// the cases and are reported as errors.
const fs = require('fs');
const yaml = require('js-yaml');
const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = cases.map((text) => {
  try {
    const v = yaml.load(text);
    if (v === undefined) return { undefined: true };
    return {
      value: JSON.parse(JSON.stringify(v, function (k, x) {
        if (this[k] instanceof Date) throw new Error('date value');
        if (typeof x === 'number' && !isFinite(x)) return 'NUMBER:' + String(x);
        return x;
      })),
    };
  } catch (e) {
    return { error: String(e.message).split('\n')[0] };
  }
});
process.stdout.write(out.map((o) => JSON.stringify(o)).join('\n') + '\n');
