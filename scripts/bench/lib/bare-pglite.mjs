// The start suite's baseline (scripts/bench/suites/start.ts): a bare Node process that opens the
// same data directory with PGlite, started as the portal starts it, and answers every request
// over node:http with one query. It listens at once; answers wait for the database, as the portal's do.
//   node bare-pglite.mjs <pglite directory> <port> <start params as JSON>
import http from 'node:http'
import { PGlite } from '@electric-sql/pglite'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

const [directory, port, params] = process.argv.slice(2)
const db = new PGlite(directory, { extensions: { pg_trgm, btree_gist }, startParams: JSON.parse(params) })
// A catalog query: it answers on a new directory (initdb only, no tables yet) as on the portal's.
const QUERY = "select count(*)::int as tables from pg_tables where schemaname = 'public'"
const server = http.createServer((_request, response) => {
	db.query(QUERY).then(
		({ rows }) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(rows[0])),
		(error) => response.writeHead(500).end(String(error)),
	)
})
server.listen(Number(port), '127.0.0.1')
const stop = () => server.close(() => void db.close().then(() => process.exit(0)))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
