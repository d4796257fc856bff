/**
 * What "no changed row" means: for every table of the public schema, its row count and an md5 of
 * its rows, in one statement. Left out are only the tables a refused input may change on purpose:
 * rate_limits (failed attempts are counted), visits (pages count their visitors) and daily_counts
 * (a page of results counts the workshops it showed, decision 0154). Sessions count.
 * Of uploads, the files held for a form refused on another field are left out too (decision 0083):
 * a refused form keeps the sender's good files for the next sending, and nothing else.
 */
import { sql } from 'drizzle-orm'
import { db, queryRows } from '~/db/db.server'

export const LEGITIMATELY_CHANGING = new Set(['rate_limits', 'visits', 'daily_counts'])
/** The rows of a table that a refused input may add or drop on purpose. */
const LEGITIMATELY_CHANGING_ROWS: Record<string, string> = { uploads: 'held_since is not null' }

export type Fingerprint = Map<string, { rows: number; md5: string }>

let statement: ReturnType<typeof sql.raw> | undefined

async function fingerprintStatement() {
	if (statement) return statement
	const tables = await queryRows<{ name: string }>(
		db,
		sql`select table_name as name from information_schema.tables
		    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
	)
	const parts = tables
		.map((table) => table.name)
		.filter((name) => !LEGITIMATELY_CHANGING.has(name))
		.map((name) => {
			const quoted = `"${name.replace(/"/g, '""')}"`
			const literal = `'${name.replace(/'/g, "''")}'`
			const where = LEGITIMATELY_CHANGING_ROWS[name] ? ` where not (${LEGITIMATELY_CHANGING_ROWS[name]})` : ''
			return `select ${literal} as name, count(*)::int as rows, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as md5 from ${quoted} t${where}`
		})
	if (!parts.length) throw new Error('no tables in the public schema')
	statement = sql.raw(parts.join('\nunion all\n'))
	return statement
}

export async function fingerprint(): Promise<Fingerprint> {
	const rows = await queryRows<{ name: string; rows: number; md5: string }>(db, await fingerprintStatement())
	return new Map(rows.map((row) => [row.name, { rows: Number(row.rows), md5: row.md5 }]))
}

/** The tables whose rows differ, with their counts before and after ('' when nothing changed). */
export function changedTables(before: Fingerprint, after: Fingerprint): string {
	const changes: string[] = []
	for (const [name, then] of before) {
		const now = after.get(name)
		if (!now) changes.push(`${name} (gone)`)
		else if (now.md5 !== then.md5) changes.push(`${name} (${then.rows} → ${now.rows} rows${now.rows === then.rows ? ', a row changed' : ''})`)
	}
	for (const name of after.keys()) if (!before.has(name)) changes.push(`${name} (new table)`)
	return changes.join(', ')
}
