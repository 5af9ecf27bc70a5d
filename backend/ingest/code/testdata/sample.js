'use strict';
// Command-line helpers for the importer.
const fs = require("fs");
const { join } = require("path");
import chalk from "chalk";
export * from "./shared.js";

const DEFAULT_OPTIONS = { verbose: false };
let counter = 0;

/**
 * Reads a JSON file.
 * @param {string} file
 */
function readJSON(file) {
  const text = fs.readFileSync(join(".", file), "utf8");
  return JSON.parse(text);
}

async function* lines(stream) {
  for await (const chunk of stream) {
    yield* chunk.toString().split("\n");
  }
}

class Importer extends EventEmitter {
  constructor(opts = DEFAULT_OPTIONS) {
    super();
    this.opts = opts;
  }

  // run imports every file.
  async run(files) {
    for (const f of files) {
      const data = readJSON(f);
      this.emit("file", data);
      counter++;
    }
    return report(files.length);
  }

  static create() {
    return new Importer();
  }

  #secret() {
    return chalk.red("x");
  }
}

const report = (n) => {
  console.log(chalk.green(`${n} files`));
  return n;
};

module.exports = { Importer, readJSON };
exports.version = function version() {
  return "1.0";
};
