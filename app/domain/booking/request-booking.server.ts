import { and, desc, eq, inArray } from 'drizzle-orm'
import { db } from '~/db/db.server'
import { bookings } from '~/db/schema'
import { holdingStatuses } from './status'

/**
 * The time booked for a customer's request (issue 33), for the customer's pages: the booking that
 * holds a bay, or null (an offer without times, or a request not yet at that step).
 */
export async function bookedTimeOf(customerId: string, requestId: string): Promise<{ startsAt: string; endsAt: string } | null> {
	const [row] = await db
		.select({ startsAt: bookings.startsAt, endsAt: bookings.endsAt })
		.from(bookings)
		.where(and(eq(bookings.requestId, requestId), eq(bookings.customerId, customerId), inArray(bookings.status, holdingStatuses)))
		.orderBy(desc(bookings.startsAt))
		.limit(1)
	return row ? { startsAt: row.startsAt.toISOString(), endsAt: row.endsAt.toISOString() } : null
}
