import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator'
import { getEnv } from '~/utils/env.server'
import { type BookingStatus, holdsTime } from './status'

/**
 * Booked times as calendar events (RFC 5545, issue 33): the workshop's private feed and the .ics
 * attached to the customer's e-mails. An event's UID is the booking's, and its SEQUENCE the
 * booking's `sequence`, raised by every change, so a calendar that reads it again moves the same
 * event; an ended booking is a CANCELLED event. Times are written in UTC (no VTIMEZONE needed);
 * calendars show them in their own zone.
 */
export type BookingEvent = {
	id: string
	sequence: number
	status: BookingStatus
	startsAt: Date
	endsAt: Date
	summary: string
	description?: string
	location?: string
	/** The page of the booking (the customer's or the workshop's). */
	url?: string
}

/** A booking's calendar UID, the same in the feed and in every e-mail. */
export function bookingUid(id: string) {
	return `booking-${id}@${new URL(getEnv().APP_URL).host}`
}

/** A calendar of booked times, in `language`'s PRODID. */
export function bookingCalendar(events: BookingEvent[], options: { name: string; language: string; now?: Date }): string {
	const calendar = ical({
		name: options.name,
		prodId: { company: 'Autohub', product: 'bookings', language: options.language.toUpperCase() },
		method: ICalCalendarMethod.PUBLISH,
		ttl: 60 * 15,
	})
	for (const event of events) {
		calendar.createEvent({
			id: bookingUid(event.id),
			sequence: event.sequence,
			start: event.startsAt,
			end: event.endsAt,
			stamp: options.now ?? new Date(),
			summary: event.summary,
			description: event.description,
			location: event.location,
			url: event.url,
			status: holdsTime(event.status) || event.status === 'done' ? ICalEventStatus.CONFIRMED : ICalEventStatus.CANCELLED,
		})
	}
	return calendar.toString()
}
