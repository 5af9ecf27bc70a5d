// An independent MCP client — the TypeScript SDK from npm, not the Go SDK
// Loom is built on — drives `loom mcp` over stdio and over Streamable HTTP
// on a real workspace (the fixture notes, offline embedder): it lists the
// tools, assembles a context, searches, expands a section the context
// named, and sees errors as errors (an unknown tool, a missing token).
//
// Usage: node frontend/e2e/mcp.e2e.mjs LOOM_BINARY
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { checks } from './checks.mjs';

const bin = process.argv[2];
if (!bin) throw new Error('usage: node mcp.e2e.mjs LOOM_BINARY');
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { check, done } = checks('mcp', { detailLimit: 300 });
const env = { ...process.env, LOOM_OLLAMA_URL: '', OLLAMA_HOST: '' };
const tmp = mkdtempSync(join(tmpdir(), 'loom-mcp-e2e-'));
const notes = join(tmp, 'notes');
const ws = join(tmp, 'ws');
cpSync(join(repo, 'testdata', 'fixture', 'notes'), notes, { recursive: true });
execFileSync(bin, ['ingest', '--workspace', ws, '--embedder', 'offline', '--quiet', notes], { env, stdio: 'ignore' });

const text = (res) => (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

async function exercise(client, how) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check(`${how}: the tools are listed with their schemas`, ['catalog', 'expand', 'get_context', 'get_window', 'search_context'].every((n) => names.includes(n)) && tools.every((t) => t.inputSchema?.type === 'object'), names.join(','));
  check(`${how}: ingest is not offered unless enabled`, !names.includes('ingest'));
  const ctx = await client.callTool({ name: 'get_context', arguments: { topic: 'How does staleness decay?', max_tokens: 800 } });
  const ctxText = text(ctx);
  check(`${how}: get_context assembles the context, manifest first`, !ctx.isError && ctxText.includes('[Context loaded:') && /staleness/i.test(ctxText), ctxText.slice(0, 300));
  const id = ctxText.match(/^\[([a-z]{3,16})\] /m)?.[1]; // a block's id, in letters (the engine's model.PromptID)
  check(`${how}: the context names its sections by id`, Boolean(id), ctxText.slice(0, 300));
  const found = await client.callTool({ name: 'search_context', arguments: { query: 'token budget', limit: 3 } });
  check(`${how}: search_context finds the budget note`, !found.isError && /budget\.md/.test(text(found)), text(found).slice(0, 200));
  if (id) {
    const ex = await client.callTool({ name: 'expand', arguments: { node_id: id, level: 'detailed' } });
    check(`${how}: expand reads a section by the id the prompt wrote`, !ex.isError && /staleness/i.test(text(ex)), text(ex).slice(0, 200));
  }
  let unknown;
  try {
    unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
  } catch (e) {
    unknown = { isError: true, content: [{ type: 'text', text: String(e) }] };
  }
  check(`${how}: an unknown tool is an error`, unknown.isError === true, JSON.stringify(unknown).slice(0, 200));
}

try {
  // stdio: the client starts the server.
  const stdio = new Client({ name: 'loom-e2e-ts', version: '1.0.0' });
  await stdio.connect(new StdioClientTransport({ command: bin, args: ['mcp', '--workspace', ws, '--embedder', 'offline'], env, stderr: 'ignore' }));
  await exercise(stdio, 'stdio');
  await stdio.close();

  // Streamable HTTP on a loopback port: the server prints its URL and token.
  const server = spawn(bin, ['mcp', '--workspace', ws, '--embedder', 'offline', '--http', '127.0.0.1:0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const ready = new Promise((resolve, reject) => {
    server.stderr.on('data', (d) => {
      err += d;
      const url = err.match(/loom mcp: serving (http:\/\/127\.0\.0\.1:\d+\S*)/)?.[1];
      const token = err.match(/bearer token .*\): (loom_\S+)/)?.[1];
      if (url && token) resolve({ url, token });
    });
    server.on('exit', (code) => reject(new Error(`loom mcp exited (${code}): ${err}`)));
  });
  // A guard against a server that never says where it listens (not a wait
  // the test relies on: the promise resolves on the printed lines).
  const guard = new Promise((_, reject) => setTimeout(() => reject(new Error(`loom mcp said nothing usable in 60 s: ${err}`)), 60_000).unref());
  const { url, token } = await Promise.race([ready, guard]);
  check('http: the server says where it listens, on loopback', url.startsWith('http://127.0.0.1:'), url);
  const refused = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{}' });
  check('http: a request without the token is refused (401)', refused.status === 401, String(refused.status));
  const http = new Client({ name: 'loom-e2e-ts', version: '1.0.0' });
  await http.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  await exercise(http, 'http');
  await http.close();
  server.kill('SIGINT');
} catch (e) {
  check('no uncaught errors', false, e?.stack ?? e);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
done();
