import { and, eq, exists, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import { serviceRequestServices, services, siteSettings, vehicleReminders } from '~/db/schema'
import { db, queryRows, transaction, type DbOrTx, type Tx } from '~/db/db.server'
import { vehicleLabel } from '~/db/sql'
import { tallinnDay } from '~/utils/time'
import { FieldError, notFound } from '~/utils/errors'
import { NotificationType, notify } from '~/domain/messaging/notifications.server'
import { addMonths } from './passport'
import { fromKm, type OdometerUnit, toKm } from './vehicle-kinds'
import { type ReminderInput } from './reminder-schema'
import { lockOwnVehicle } from './vehicles.server'
import {
	addDays,
	DEFAULT_TYRE_DAYS,
	intervalServices,
	type ReminderKind,
	reminderKinds,
	REMINDER_LIMITS,
	reminderMessageKey,
	type ReminderSchedule,
	reminderSchedule,
	type ReminderSettings,
	SERVICE_NOTICE_KM,
	type TyreDays,
	unsetReminder,
} from './reminders'

/**
 * A vehicle's reminders (issue 20): the technical inspection, the seasonal tyres and the service
 * interval, set by its owner; told by the bell and e-mail when due (an hourly job, and at once when
 * a saved reminder is already due); snoozed or turned off by the owner (docs/decisions/0102).
 * Every query names the owner: another's vehicle is "not found".
 */

const settingsColumns = {
	kind: vehicleReminders.kind,
	active: vehicleReminders.active,
	dueOn: vehicleReminders.dueOn,
	lastDoneOn: vehicleReminders.lastDoneOn,
	lastDoneMileage: vehicleReminders.lastDoneMileage,
	everyMonths: vehicleReminders.everyMonths,
	everyKm: vehicleReminders.everyKm,
	daysBefore: vehicleReminders.daysBefore,
	snoozedUntil: vehicleReminders.snoozedUntil,
	notifiedKey: vehicleReminders.notifiedKey,
}

/** The site's tyre reminder days (site settings). */
async function tyreDays(database: DbOrTx = db): Promise<TyreDays> {
	const [row] = await database
		.select({ autumn: siteSettings.tyreAutumnDay, spring: siteSettings.tyreSpringDay })
		.from(siteSettings)
		.where(eq(siteSettings.id, true))
	return row ?? DEFAULT_TYRE_DAYS
}

/**
 * The vehicle's three reminders as its owner sees them on `now`'s day (the caller found the vehicle
 * as the owner's): each as set, or unset with its defaults, with when it is due; and the site's
 * tyre days they were worked out with (the page names them).
 */
export async function vehicleReminderList(vehicle: { id: string; mileage: number }, now = new Date()): Promise<{ reminders: ReminderSchedule[]; tyreDays: TyreDays }> {
	const [rows, days] = await Promise.all([
		db.select(settingsColumns).from(vehicleReminders).where(eq(vehicleReminders.vehicleId, vehicle.id)),
		tyreDays(),
	])
	const context = { mileage: vehicle.mileage, today: tallinnDay(now), tyreDays: days }
	return {
		reminders: reminderKinds.map((kind) => reminderSchedule(rows.find((row) => row.kind === kind) ?? unsetReminder(kind), context)),
		tyreDays: days,
	}
}

/**
 * Sets a reminder and turns it on (a snooze ends; an occurrence changed by the new figures is told
 * again). An inspection given by its last day is due `everyMonths` after it. A reminder already
 * due is told at once rather than at the next hourly run.
 */
export async function saveReminder(ownerId: string, vehicleId: string, input: ReminderInput, now = new Date()) {
	await transaction(async (tx) => {
		const vehicle = await lockOwnVehicle(tx, ownerId, vehicleId)
		// The service's reading and interval are typed in the vehicle's unit and kept in km (decision 0122).
		const everyKm = input.kind === 'service' ? toKm(input.everyKm, vehicle.odometerUnit) : null
		if (everyKm !== null && everyKm > REMINDER_LIMITS.serviceKm[1]) throw new FieldError('everyKm', 'customer:reminders.serviceMiRange')
		const values =
			input.kind === 'inspection'
				? {
						dueOn: input.dueOn ?? addMonths(input.lastDoneOn!, input.everyMonths),
						lastDoneOn: input.lastDoneOn ?? null,
						everyMonths: input.everyMonths,
						daysBefore: input.daysBefore,
					}
				: input.kind === 'service'
					? {
							lastDoneOn: input.lastDoneOn,
							lastDoneMileage: toKm(input.lastDoneMileage, vehicle.odometerUnit),
							everyKm,
							everyMonths: input.everyMonths,
							daysBefore: input.daysBefore,
						}
					: {}
		await tx
			.insert(vehicleReminders)
			.values({ vehicleId, kind: input.kind, ...values, active: true })
			.onConflictDoUpdate({
				target: [vehicleReminders.vehicleId, vehicleReminders.kind],
				set: { ...values, active: true, snoozedUntil: null, updatedAt: new Date() },
			})
		await tellDueReminders(tx, now, vehicleId)
	})
}

/** Snoozes a reminder by `days` (it is told again when the snooze ends), or turns it off. */
export async function changeReminder(ownerId: string, vehicleId: string, kind: ReminderKind, change: { snoozeDays: number } | 'off', now = new Date()) {
	await transaction(async (tx) => {
		await lockOwnVehicle(tx, ownerId, vehicleId)
		const set = change === 'off' ? { active: false } : { snoozedUntil: addDays(tallinnDay(now), change.snoozeDays), notifiedKey: null }
		const [row] = await tx
			.update(vehicleReminders)
			.set({ ...set, updatedAt: new Date() })
			// Turning off one already off (a second tab, a double press) changes nothing and is no error.
			.where(and(eq(vehicleReminders.vehicleId, vehicleId), eq(vehicleReminders.kind, kind), change === 'off' ? undefined : eq(vehicleReminders.active, true)))
			.returning({ kind: vehicleReminders.kind })
		if (!row) throw notFound()
	})
}

/**
 * A completed job of an interval service (maintenance, an oil change) starts the vehicle's service
 * interval again from its day and mileage. Called by the move that completes it, after the vehicle.
 */
export async function restartServiceInterval(tx: DbOrTx, requestId: string, vehicleId: string, day: string, mileage: number | null) {
	if (mileage === null) return
	const intervalJob = tx
		.select({ one: sql`1` })
		.from(serviceRequestServices)
		.innerJoin(services, eq(services.id, serviceRequestServices.serviceId))
		.where(and(eq(serviceRequestServices.requestId, requestId), inArray(services.code, intervalServices)))
	await tx
		.update(vehicleReminders)
		.set({ lastDoneOn: day, lastDoneMileage: mileage, updatedAt: new Date() })
		.where(
			and(
				eq(vehicleReminders.vehicleId, vehicleId),
				eq(vehicleReminders.kind, 'service'),
				or(isNull(vehicleReminders.lastDoneOn), lte(vehicleReminders.lastDoneOn, day)),
				exists(intervalJob),
			),
		)
}

type DueRow = ReminderSettings & { vehicleId: string; userId: string; mileage: number; unit: OdometerUnit; vehicle: string }

/**
 * Tells every reminder due on `now`'s day once per occurrence, by the bell and e-mail (kind
 * "reminders"): the hourly job, or one vehicle's right after its owner saved a reminder. The
 * notice's button opens a request prefilled with the vehicle and the reminder's service. `now`
 * lets tests move the clock.
 */
async function tellDueReminders(tx: Tx, now: Date, vehicleId?: string): Promise<number> {
	const today = tallinnDay(now)
	const rows = await queryRows<DueRow>(
		tx,
		sql`select vr.vehicle_id as "vehicleId", vr.kind, vr.active, to_char(vr.due_on, 'YYYY-MM-DD') as "dueOn",
		           to_char(vr.last_done_on, 'YYYY-MM-DD') as "lastDoneOn", vr.last_done_mileage as "lastDoneMileage",
		           vr.every_months as "everyMonths", vr.every_km as "everyKm", vr.days_before as "daysBefore",
		           to_char(vr.snoozed_until, 'YYYY-MM-DD') as "snoozedUntil", vr.notified_key as "notifiedKey",
		           v.owner_id as "userId", v.mileage, v.odometer_unit as unit, ${vehicleLabel('registration')} as vehicle
		    from vehicle_reminders vr
		    join vehicles v on v.id = vr.vehicle_id and v.deleted_at is null
		    join car_brands b on b.id = v.brand_id
		    join users u on u.id = v.owner_id and not u.blocked
		    where vr.active and (vr.snoozed_until is null or vr.snoozed_until <= ${today}::date)
		      ${vehicleId ? sql`and vr.vehicle_id = ${vehicleId}` : sql``}
		      and (vr.kind = 'tyres'
		           or (vr.kind = 'inspection' and vr.due_on - vr.days_before <= ${today}::date)
		           or (vr.kind = 'service' and ((vr.last_done_on + make_interval(months => vr.every_months))::date - vr.days_before <= ${today}::date
		                                        or v.mileage >= vr.last_done_mileage + vr.every_km - ${SERVICE_NOTICE_KM})))
		    for update of vr skip locked`,
	)
	const days = await tyreDays(tx)
	const due = rows
		.map((row) => ({ row, schedule: reminderSchedule(row, { mileage: row.mileage, today, tyreDays: days }) }))
		.filter(({ schedule }) => schedule.notify)
	if (!due.length) return 0
	await notify(
		tx,
		due.map(({ row, schedule }) => ({
			userId: row.userId,
			type: NotificationType.dialog,
			messageKey: reminderMessageKey(row.kind, schedule.season),
			messageParams: { vehicle: row.vehicle, dueDay: schedule.nextOn ?? '', ...(schedule.dueKm !== null ? { reading: fromKm(schedule.dueKm, row.unit) } : {}) },
			receivedId: row.vehicleId,
		})),
	)
	const told = due.map(({ row, schedule }) => sql`(${row.vehicleId}::uuid, ${row.kind}::reminder_kind, ${schedule.key})`)
	await tx.execute(sql`update vehicle_reminders vr set notified_key = told.key
	                     from (values ${sql.join(told, sql`, `)}) as told(vehicle_id, kind, key)
	                     where vr.vehicle_id = told.vehicle_id and vr.kind = told.kind`)
	return due.length
}

/** The hourly job: every due reminder, told once per occurrence. */
export function sendReminders(now = new Date()): Promise<number> {
	return transaction((tx) => tellDueReminders(tx, now))
}
