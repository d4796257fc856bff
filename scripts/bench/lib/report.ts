import { type BenchFigure } from '../types'
import { type Measurement } from './measure'

/** The middle value (of an even count, the lower of the two middle ones: a value that was measured). */
export function median(values: number[]) {
	const sorted = [...values].sort((a, b) => a - b)
	return sorted[Math.floor((sorted.length - 1) / 2)]!
}

export type Row = { suite: string; name: string; results: Measurement[] }

/**
 * A plain-text table: a header line, a rule, then the rows; the first `leftColumns` columns
 * aligned left (names), the others right (figures).
 */
export function printColumns(headers: string[], rows: string[][], leftColumns = 1) {
	const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((cells) => (cells[i] ?? '').length)))
	const line = (cells: string[]) =>
		widths
			.map((width, i) => (i < leftColumns ? (cells[i] ?? '').padEnd(width) : (cells[i] ?? '').padStart(width)))
			.join('  ')
			.trimEnd()
	console.log(line(headers))
	console.log(widths.map((w) => '-'.repeat(w)).join('  '))
	for (const cells of rows) console.log(line(cells))
}

/** The request suites' table: one line per case, p50 / p99 (ms) and requests per second per concurrency. */
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
	printColumns(headers, body, 2)
}

/** A process suite's figures: the portal's (median, and the runs' range), its baseline's, and the ratio. */
export function printFigures(suite: string, baselineLabel: string, figures: BenchFigure[]) {
	const headers = [suite, 'portal', 'runs', 'baseline', 'runs', 'portal / baseline']
	const body = figures.map((f) => [
		f.name,
		`${f.value.toFixed(0)} ${f.unit}`,
		f.spread ?? '',
		f.baseline === undefined ? '' : `${f.baseline.toFixed(0)} ${f.unit}`,
		f.baselineSpread ?? '',
		f.baseline ? `×${(f.value / f.baseline).toFixed(2)}` : '',
	])
	printColumns(headers, body)
	console.log(`baseline: ${baselineLabel}`)
}
