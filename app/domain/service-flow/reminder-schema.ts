import * as z from 'zod/mini'
import { tallinnDay } from '~/utils/time'
import { localDate } from '~/utils/validation'
import { addMonths } from './passport'
import { REMINDER_DEFAULTS, REMINDER_LIMITS, reminderKinds, snoozeDays } from './reminders'
import { odometerReading } from './reading-schema'

/** A whole number in the reminder's bounds, its error naming them (an absurd interval says what is sensible). */
const within = ([min, max]: readonly [number, number], message: string) =>
	z.coerce.number({ error: 'validation.required' }).check(z.int(message), z.minimum(min, message), z.maximum(max, message))

const daysBefore = z._default(within(REMINDER_LIMITS.daysBefore, 'customer:reminders.daysBeforeRange'), REMINDER_DEFAULTS.daysBefore)

/**
 * The technical inspection: its due day, or the last inspection's day and how often (the due day
 * is worked out from them). The due day is not in the past nor years ahead; the last one not in
 * the future.
 */
export const InspectionReminderSchema = z
	.object({
		kind: z.literal('inspection'),
		dueOn: z.optional(localDate()),
		lastDoneOn: z.optional(localDate()),
		everyMonths: z._default(within(REMINDER_LIMITS.inspectionMonths, 'customer:reminders.inspectionMonthsRange'), REMINDER_DEFAULTS.inspectionMonths),
		daysBefore,
	})
	.check(
		z.superRefine((value, context) => {
		const today = tallinnDay()
		if (!value.dueOn && !value.lastDoneOn) context.addIssue({ code: 'custom', path: ['dueOn'], message: 'customer:reminders.dueOrLast' })
		if (value.dueOn && value.dueOn < today) context.addIssue({ code: 'custom', path: ['dueOn'], message: 'customer:reminders.dueInPast' })
		if (value.dueOn && value.dueOn > addMonths(today, REMINDER_LIMITS.inspectionYearsAhead * 12))
			context.addIssue({ code: 'custom', path: ['dueOn'], message: 'customer:reminders.dueTooFar' })
		if (value.lastDoneOn && value.lastDoneOn > today) context.addIssue({ code: 'custom', path: ['lastDoneOn'], message: 'customer:passport.futureDate' })
		}),
	)

/** The seasonal tyres: on or off, the days are the site's. */
export const TyresReminderSchema = z.object({ kind: z.literal('tyres') })

/** The service interval: every N km or M months since the last service (its day and mileage). */
export const ServiceReminderSchema = z
	.object({
		kind: z.literal('service'),
		lastDoneOn: localDate(),
		lastDoneMileage: odometerReading(),
		everyKm: within(REMINDER_LIMITS.serviceKm, 'customer:reminders.serviceKmRange'),
		everyMonths: within(REMINDER_LIMITS.serviceMonths, 'customer:reminders.serviceMonthsRange'),
		daysBefore,
	})
	.check(
		z.superRefine((value, context) => {
			if (value.lastDoneOn > tallinnDay()) context.addIssue({ code: 'custom', path: ['lastDoneOn'], message: 'customer:passport.futureDate' })
		}),
	)

export const reminderSchemas = { inspection: InspectionReminderSchema, tyres: TyresReminderSchema, service: ServiceReminderSchema }
export type InspectionReminderInput = z.output<typeof InspectionReminderSchema>
export type ServiceReminderInput = z.output<typeof ServiceReminderSchema>
export type ReminderInput = InspectionReminderInput | z.output<typeof TyresReminderSchema> | ServiceReminderInput

/** Turning a reminder off. */
export const ReminderOffSchema = z.object({ kind: z.enum(reminderKinds) })

/** Snoozing a reminder by one of snoozeDays. */
export const SnoozeReminderSchema = z.extend(ReminderOffSchema, {
	days: z.coerce.number().check(z.refine((days) => (snoozeDays as readonly number[]).includes(days))),
})
