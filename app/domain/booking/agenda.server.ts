import { and, eq, gte, lt, sql } from 'drizzle-orm'
import { db, queryRows } from '~/db/db.server'
import { workshopDaysOff } from '~/db/schema'
import { customerName, serviceNames, vehicleLabel } from '~/db/sql'
import { type Language } from '~/i18n/config'
import { encodeId } from '~/utils/public-id'
import { tallinnToDate } from '~/utils/time'
import { addDays } from './calendar'
import { estonianPublicHolidays } from './holidays'
import { type BookingStatus } from './status'

/**
 * The workshop's agenda (/workshop-calendar, issue 33): its booked jobs over one Tallinn day or
 * week, with the car, the services, the customer and their phone, and the days it is shut (public
 * holidays, its own days off). Only the workshop's own bookings: the workshop is in the query.
 * Cancelled bookings are left out: their time is free again and a new booking may stand there.
 */

export type AgendaBooking = {
	id: string
	startsAt: Date
	endsAt: Date
	status: BookingStatus
	bayPosition: number
	bayName: string
	vehicle: string
	plate: string
	services: string[]
	customer: string
	phone: string
	/** The workshop's page of the offer: /workshop-bid-details/{offerSlug}. */
	offerSlug: string
}
export type AgendaDay = { day: string; holiday: string | null; dayOff: { note: string } | null; bookings: AgendaBooking[] }

/** Bookings of one workshop starting in [from, until), in time and bay order. */
export async function workshopBookingsBetween(workshopId: string, from: Date, until: Date, language: Language, options: { withCancelled?: boolean } = {}) {
	const rows = await queryRows<Omit<AgendaBooking, 'offerSlug'> & { offerId: string; sequence: number }>(
		db,
		sql`select bk.id, bk.starts_at as "startsAt", bk.ends_at as "endsAt", bk.status, bk.sequence, bk.offer_id as "offerId",
		           bay.position as "bayPosition", bay.name as "bayName",
		           ${vehicleLabel('model')} as vehicle, v.registration_number as plate, ${serviceNames(language)} as services,
		           coalesce(${customerName(language)}, '') as customer, coalesce(u.mobile, '') as phone
		    from bookings bk
		    join workshop_bays bay on bay.id = bk.bay_id
		    join service_requests r on r.id = bk.request_id
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    left join users u on u.id = bk.customer_id
		    where bk.workshop_id = ${workshopId} and bk.starts_at >= ${from} and bk.starts_at < ${until}
		      ${options.withCancelled ? sql`` : sql`and bk.status <> 'cancelled'`}
		    order by bk.starts_at, bay.position`,
	)
	// Raw rows carry timestamps as the driver gives them (text on some): Dates either way.
	return rows.map((row) => ({ ...row, startsAt: new Date(row.startsAt), endsAt: new Date(row.endsAt), offerSlug: encodeId(row.offerId) }))
}

/** The agenda of `days` Tallinn days from `from` ('YYYY-MM-DD'). */
export async function agenda(workshopId: string, range: { from: string; days: 1 | 7 }, language: Language): Promise<AgendaDay[]> {
	const dayList = Array.from({ length: range.days }, (_, index) => addDays(range.from, index))
	const last = dayList.at(-1)!
	const [bookingRows, daysOff] = await Promise.all([
		workshopBookingsBetween(workshopId, tallinnToDate(`${range.from}T00:00`), tallinnToDate(`${addDays(last, 1)}T00:00`), language),
		db
			.select({ day: workshopDaysOff.day, note: workshopDaysOff.note })
			.from(workshopDaysOff)
			.where(and(eq(workshopDaysOff.workshopId, workshopId), gte(workshopDaysOff.day, range.from), lt(workshopDaysOff.day, addDays(last, 1)))),
	])
	const holidays = new Map(
		[...new Set([range.from.slice(0, 4), last.slice(0, 4)])].flatMap((year) => estonianPublicHolidays(Number(year))).map((holiday) => [holiday.day, holiday.key]),
	)
	const offByDay = new Map(daysOff.map((row) => [row.day, { note: row.note }]))
	return dayList.map((day) => {
		const dayEnd = tallinnToDate(`${addDays(day, 1)}T00:00`).getTime()
		const dayStart = tallinnToDate(`${day}T00:00`).getTime()
		return {
			day,
			holiday: holidays.get(day) ?? null,
			dayOff: offByDay.get(day) ?? null,
			bookings: bookingRows
				.filter((row) => row.startsAt.getTime() >= dayStart && row.startsAt.getTime() < dayEnd)
				.map(({ offerId: _offerId, sequence: _sequence, ...row }) => row),
		}
	})
}
