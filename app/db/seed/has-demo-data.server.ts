import { sql } from 'drizzle-orm'
import { siteSettings } from '~/db/schema'
import { queryRows, type DbOrTx } from '~/db/db.server'

/**
 * Whether the database already holds data: its site settings, the first thing the demo data (or
 * an operator's first save) writes. The demo data is loaded only when it does not, never mixed
 * into real data. Apart from the demo data's module so that a start asks this without loading the
 * whole data set (decision 0094).
 */
export async function hasDemoData(database: DbOrTx): Promise<boolean> {
	const [row] = await queryRows<{ present: boolean }>(database, sql`select exists (select 1 from ${siteSettings}) as present`)
	return row?.present === true
}
