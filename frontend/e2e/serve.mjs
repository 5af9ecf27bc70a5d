// A small static file server for the web edition's tests: serves a folder
// (default ../../build/web) on the loopback interface only.
//
//   node frontend/e2e/serve.mjs [dir] [port]     (port 0: any free one)
//
// Prints "serving <dir> at http://127.0.0.1:<port>/" once it listens.
// LOOM_SERVE_PREFIX=/some/path/ serves the folder under that sub-path
// instead of the root (to check the site works from any path).
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, resolve, sep, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(process.argv[2] ?? join(here, '../../build/web'));
const port = Number(process.argv[3] ?? process.env.PORT ?? 8080);
const prefix = process.env.LOOM_SERVE_PREFIX ?? '/';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.bin': 'application/octet-stream',
};

export function serve(dir = root, listenPort = port, pathPrefix = prefix) {
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (!path.startsWith(pathPrefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    path = '/' + path.slice(pathPrefix.length);
    if (path.endsWith('/')) path += 'index.html';
    const file = resolve(dir, '.' + path);
    if (file !== dir && !file.startsWith(dir + sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    let st;
    try {
      st = statSync(file);
    } catch {
      res.writeHead(404).end('not found');
      return;
    }
    if (!st.isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'Content-Type': types[extname(file)] ?? 'application/octet-stream',
      'Content-Length': st.size,
      'Cache-Control': 'no-cache',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((resolveListen) => {
    server.listen(listenPort, '127.0.0.1', () => {
      const addr = server.address();
      const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : listenPort}${pathPrefix}`;
      resolveListen({ server, url });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { url } = await serve();
  console.log(`serving ${root} at ${url}`);
}
