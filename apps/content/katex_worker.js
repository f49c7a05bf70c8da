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
  trust: false,
  maxSize: 20,
  maxExpand: 500,
};

process.stdout.write(JSON.stringify({ version: katex.version }) + "\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let reply;
  try {
    const request = JSON.parse(line);
    reply = {
      html: katex.renderToString(String(request.tex), {
        ...OPTIONS,
        displayMode: Boolean(request.display),
      }),
    };
  } catch (error) {
    reply = { error: String((error && error.message) || error) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
