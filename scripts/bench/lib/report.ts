import { type Measurement } from './measure'

export type Row = { suite: string; name: string; results: Measurement[] }

/** A plain-text table: one line per case, p50 / p99 (ms) and requests per second per concurrency. */
export function printTable(rows: Row[], connections: number[]) {
	const headers = ['suite', 'case', ...connections.flatMap((c) => [`p50 ms (${c}c)`, `p99 ms (${c}c)`, `req/s (${c}c)`]), 'errors']
	const body = rows.map((row) => [
		row.suite,
		row.name,
		...connections.flatMap((c) => {
			const m = row.results.find((r) => r.connections === c)
			return m ? [m.p50.toFixed(1), m.p99.toFixed(1), m.rps.toFixed(0)] : ['', '', '']
		}),
		String(row.results.reduce((sum, r) => sum + r.errors, 0)),
	])
	const widths = headers.map((h, i) => Math.max(h.length, ...body.map((line) => line[i]!.length)))
	const line = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')
	console.log(line(headers))
	console.log(widths.map((w) => '-'.repeat(w)).join('  '))
	for (const cells of body) console.log(line(cells))
}
