import { sql } from 'drizzle-orm'
import { type DbOrTx, db, queryRows } from '~/db/db.server'
import { RECORD_MINIMUM } from './status'

/**
 * A customer's record of booked times kept (issue 33), as workshops see it before they offer:
 * "came to N of M bookings". Counted are the bookings whose start has passed and that were not
 * cancelled: the car came (done, or a step of the job) or it did not (a no-show). A time the
 * workshop did not take ("not taken") is the workshop's failing, not the customer's: not counted.
 * Shown only from RECORD_MINIMUM bookings on, so one missed time does not brand a new customer.
 */
export type CustomerRecord = { due: number; came: number }

export async function customerRecord(customerId: string, now = new Date(), database: DbOrTx = db): Promise<CustomerRecord | null> {
	const [row] = await queryRows<CustomerRecord>(
		database,
		sql`select count(*)::int as due,
		           (count(*) filter (where status in ('done', 'car_received', 'in_work', 'ready')))::int as came
		    from bookings
		    where customer_id = ${customerId} and starts_at <= ${now} and status in ('done', 'car_received', 'in_work', 'ready', 'no_show')`,
	)
	return row && row.due >= RECORD_MINIMUM ? row : null
}
