// Renders TeX with the pinned npm KaTeX for apps/content/katex.py.
// Protocol: one JSON request per line on stdin, {"tex": "...", "display": bool};
// one JSON reply per line on stdout, {"html": "..."} or {"error": "..."}.
// The first line written is {"version": "<katex version>"}.
"use strict";
const katex = require("katex");
const readline = require("readline");

const OPTIONS = {
  output: "htmlAndMathml",
  throwOnError: true,
  strict: "ignore",
  maxSize: 20,
  maxExpand: 500,
};

// Links, images, classes, ids, styles and data attributes are refused, not drawn in red: KaTeX only colours a
// command it does not trust, and the author would learn of it from a student.
function refusing(untrusted) {
  return (context) => {
    untrusted.push(context.command);
    return false;
  };
}

process.stdout.write(JSON.stringify({ version: katex.version }) + "\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let reply;
  try {
    const request = JSON.parse(line);
    const untrusted = [];
    const html = katex.renderToString(String(request.tex), {
      ...OPTIONS,
      trust: refusing(untrusted),
      displayMode: Boolean(request.display),
    });
    reply = untrusted.length
      ? { error: `${untrusted[0]} is not allowed here (no links, images, classes, ids or styles in maths)` }
      : { html };
  } catch (error) {
    // KaTeX parses recursively: a few thousand nested groups overflow V8's stack, whose message names no formula.
    reply =
      error instanceof RangeError
        ? { error: "the formula is nested too deeply to typeset (too many { or ( inside each other)" }
        : { error: String((error && error.message) || error) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
