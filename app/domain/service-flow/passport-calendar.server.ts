import ical, { ICalCalendarMethod } from 'ical-generator'
import { getFixedT } from '~/i18n/i18n.server'
import { getEnv } from '~/utils/env.server'
import { formatDate } from '~/utils/format'
import { encodeId } from '~/utils/public-id'
import { type LinkedVehicle, vehiclePassport } from './passport.server'
import { vehicleReminderList } from './reminders.server'
import { distanceText } from './vehicle-kinds'

/**
 * A vehicle's calendar (RFC 5545, issue 20): its reminders' next days (inspection, tyres, service;
 * not those turned off) and its warranty ends as all-day events, in its owner's
 * language, so a phone's calendar that subscribes to the private link shows them. A work warranty
 * ends at a mileage, not a day: it is not in the calendar (docs/decisions/0101). Each event's UID
 * is stable, so a calendar that reads the link again updates an event instead of adding one.
 */
export async function vehicleCalendar(vehicle: LinkedVehicle, now = new Date()): Promise<string> {
	const { language } = vehicle
	const t = getFixedT(language, 'customer')
	const host = new URL(getEnv().APP_URL).host
	const page = `${getEnv().APP_URL}/vehicle-details/${encodeId(vehicle.id)}`
	const calendar = ical({
		name: t('passport.calendar.name', { vehicle: vehicle.label }),
		prodId: { company: 'Autohub', product: 'vehicle-passport', language: language.toUpperCase() },
		method: ICalCalendarMethod.PUBLISH,
		ttl: 60 * 60 * 12,
	})
	const [passport, { reminders }] = await Promise.all([vehiclePassport(vehicle, language, now), vehicleReminderList(vehicle, now)])
	for (const reminder of reminders) {
		if (reminder.state === 'off' || !reminder.nextOn) continue
		calendar.createEvent({
			id: `reminder-${reminder.kind}-${vehicle.id}@${host}`,
			start: new Date(`${reminder.nextOn}T00:00:00Z`),
			allDay: true,
			stamp: now,
			summary: t(`reminders.calendar.${reminder.season ?? reminder.kind}`, { vehicle: vehicle.label }),
			description: reminder.dueKm !== null ? t('reminders.calendar.serviceText', { distance: distanceText(t, reminder.dueKm, vehicle.odometerUnit) }) : undefined,
			url: `${page}#reminders`,
		})
	}
	for (const warranty of passport.warranties) {
		if (!warranty.parts) continue
		calendar.createEvent({
			id: `parts-warranty-${warranty.offerId}@${host}`,
			start: new Date(`${warranty.parts.until}T00:00:00Z`),
			allDay: true,
			stamp: now,
			summary: t('passport.calendar.partsWarrantyEnds', { workshop: warranty.workshopName }),
			description: t('passport.calendar.partsWarrantyText', {
				work: warranty.title,
				completed: formatDate(warranty.completedOn, language),
				months: warranty.partsMonths,
			}),
			url: `${page}#warranty`,
		})
	}
	return calendar.toString()
}
