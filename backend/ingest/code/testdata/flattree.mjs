// Prints the flat syntax tree the web edition's page makes of a file
// (frontend/src/web/codetree.js), as JSON: node testdata/flattree.mjs
// GRAMMARS_DIR LANG FILE. webtree_test.go reads it.
import { readFileSync } from 'node:fs';
import { configure, parseFlat } from '../../../../frontend/src/web/codetree.js';

const [dir, lang, file] = process.argv.slice(2);
configure(dir.endsWith('/') ? dir : dir + '/');
const t = await parseFlat(lang, readFileSync(file, 'utf8'));
process.stdout.write(JSON.stringify({ types: t.types, fields: t.fields, records: Array.from(t.records), units: t.units }));
