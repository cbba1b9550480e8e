// Placeholder until the real stand-in lands: answers /health so the end-to-end servers can start.
import http from 'node:http';

const port = Number(process.argv[2]);
http.createServer((_req, res) => res.writeHead(200).end('ok')).listen(port, '127.0.0.1');
