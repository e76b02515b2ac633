// Usage: node all-checks-pass.js RESULTS-DIR PREFIX SCENARIO...
//
// Reads the checks.json that the conformance suite wrote (-o RESULTS-DIR)
// for each SCENARIO and prints every check as "PREFIX: scenario: STATUS
// id", its message after a colon when it has one. Exits non-zero unless
// every scenario ran and every one of its checks is a SUCCESS: the suite's
// summary counts a SKIPPED check as passed, and a scenario whose checks
// were all skipped (the server did not declare what they test) as one that
// passes.
const fs = require("fs"), path = require("path");
const [dir, prefix, ...scenarios] = process.argv.slice(2);
const dirs = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
let bad = 0;
for (const s of scenarios) {
	const d = dirs.find((d) => d.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "") === s);
	if (d === undefined) {
		console.log(`${prefix}: ${s}: did not run`);
		bad++;
		continue;
	}
	for (const c of JSON.parse(fs.readFileSync(path.join(dir, d, "checks.json"), "utf8"))) {
		console.log(`${prefix}: ${s}: ${c.status} ${c.id}${c.errorMessage ? ": " + c.errorMessage : ""}`);
		if (c.status !== "SUCCESS") bad++;
	}
}
if (bad > 0) console.log(`${prefix}: FAIL: ${bad} of the checks above did not succeed (a skip is not a pass)`);
process.exit(bad > 0 ? 1 : 0);
