import { type FieldMetadata, type FormMetadata, getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { type InspectionReminderInput, reminderSchemas, type ServiceReminderInput } from '~/domain/service-flow/reminder-schema'
import { type ReminderKind, reminderRequestPath, type ReminderSchedule, type ReminderState, snoozeDays } from '~/domain/service-flow/reminders'
import { distanceText, fromKm, type OdometerUnit } from '~/domain/service-flow/vehicle-kinds'
import { useLanguage } from '~/i18n/use-language'
import { formatDate } from '~/utils/format'
import { Field, FormActions, FormAlert, FormSecurity, IntentButton } from './forms'

/**
 * The vehicle passport's reminders (issue 20): the technical inspection, the seasonal tyres and the
 * service interval, each with when it is due, a request prefilled for it, snoozing and turning off,
 * and its settings in a disclosure (a plain form without JavaScript).
 */

export type ReminderAnswer = { kind: ReminderKind; result: SubmissionResult<string[]> }

/** The states worth a badge beside the reminder's name, and its look. */
const badge: Partial<Record<ReminderState, string>> = { due: 'badge badge--warranty-expiring', overdue: 'badge badge--reminder-overdue', snoozed: 'badge', off: 'badge' }

export function ReminderList({
	reminders,
	vehicleId,
	lastService,
	unit,
	tyreDays,
	answer,
}: {
	reminders: ReminderSchedule[]
	vehicleId: string
	/** The newest entry of the history with a mileage: where a new service interval starts. */
	lastService: { on: string; mileage: number } | null
	/** The vehicle's odometer unit: the service's reading and interval are typed and shown in it. */
	unit: OdometerUnit
	/** The site's tyre reminder days, as "1 October". */
	tyreDays: { autumn: string; spring: string }
	answer: ReminderAnswer | null
}) {
	const { t } = useTranslation('customer')
	return (
		<>
			<p>{t('reminders.intro')}</p>
			<ul className="item-list reminders">
				{reminders.map((reminder) => {
					const headingId = `reminder-${reminder.kind}-title`
					const shown = reminder.state === 'due' || reminder.state === 'overdue'
					return (
						<li key={reminder.kind} className="item reminders__item">
							<div className="item__main">
								<h3 id={headingId} className="item__title">
									{t(`reminders.kinds.${reminder.kind}`)}{' '}
									{badge[reminder.state] ? <strong className={badge[reminder.state]}>{t(`reminders.states.${reminder.state}`)}</strong> : null}
								</h3>
								<ReminderWhen reminder={reminder} unit={unit} />
								{reminder.kind === 'tyres' ? <p className="item__meta">{t('reminders.tyresLaw', tyreDays)}</p> : null}
								<div className="reminders__actions">
									{reminder.state !== 'off' ? (
										<Link to={reminderRequestPath(vehicleId, reminder.kind)} className={`button button--small ${shown ? 'button--primary' : 'button--ghost'}`} aria-describedby={headingId}>
											{t('reminders.askOffers')}
										</Link>
									) : null}
									{shown
										? snoozeDays.map((days) => (
												<IntentButton key={days} intent="snoozeReminder" fields={{ kind: reminder.kind, days }} describedBy={headingId}>
													{t(`reminders.snooze${days}`)}
												</IntentButton>
											))
										: null}
									{reminder.state !== 'off' ? (
										<IntentButton intent="reminderOff" fields={{ kind: reminder.kind }} describedBy={headingId}>
											{t('reminders.turnOff')}
										</IntentButton>
									) : reminder.kind === 'tyres' ? (
										<IntentButton intent="saveReminder" fields={{ kind: 'tyres' }} describedBy={headingId}>
											{t('reminders.turnOn')}
										</IntentButton>
									) : null}
								</div>
								{reminder.kind !== 'tyres' ? (
									<details className="widen" open={answer?.kind === reminder.kind ? true : undefined}>
										<summary>{reminder.state === 'off' ? t('reminders.setUp') : t('reminders.change')}</summary>
										{reminder.kind === 'inspection' ? (
											<InspectionForm reminder={reminder} lastResult={answer?.kind === 'inspection' ? answer.result : undefined} />
										) : (
											<ServiceForm reminder={reminder} lastService={lastService} unit={unit} lastResult={answer?.kind === 'service' ? answer.result : undefined} />
										)}
									</details>
								) : null}
							</div>
						</li>
					)
				})}
			</ul>
		</>
	)
}

/** When the reminder is due, in words. */
function ReminderWhen({ reminder, unit }: { reminder: ReminderSchedule; unit: OdometerUnit }) {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const date = reminder.nextOn ? formatDate(reminder.nextOn, language) : null
	let text: string | null = null
	if (reminder.state === 'off') text = reminder.kind === 'tyres' ? t('reminders.tyresOff') : reminder.key ? t('reminders.offText') : t('reminders.notSet')
	else if (reminder.kind === 'tyres') text = t(reminder.state === 'scheduled' ? `reminders.tyresNext.${reminder.season}` : `reminders.tyresNow.${reminder.season}`, { date })
	else if (reminder.kind === 'inspection') text = t(reminder.state === 'overdue' ? 'reminders.inspectionOverdue' : 'reminders.inspectionDue', { date })
	else
		text = t('reminders.serviceDue', {
			date,
			distance: distanceText(t, reminder.dueKm ?? 0, unit),
		})
	return (
		<>
			<p className="item__meta">{text}</p>
			{reminder.state === 'snoozed' && reminder.snoozedUntil ? <p className="item__meta">{t('reminders.snoozedUntil', { date: formatDate(reminder.snoozedUntil, language) })}</p> : null}
		</>
	)
}

/** What both reminder forms share: the action's intent and kind, the form's error, a help line, the fields, the button. */
function ReminderForm<Fields extends Record<string, unknown>>({ form, kind, help, children }: { form: FormMetadata<Fields, string[]>; kind: ReminderKind; help: string; children: React.ReactNode }) {
	const { t } = useTranslation('customer')
	return (
		<Form method="post" className="form" {...getFormProps(form)}>
			<FormSecurity intent="saveReminder" />
			<input type="hidden" name="kind" value={kind} />
			<FormAlert id={form.errorId} errors={form.errors} />
			<p className="field__help">{help}</p>
			<div className="form-grid form-grid--two">{children}</div>
			<FormActions submit={t('reminders.save')} />
		</Form>
	)
}

/** A whole number's field (months, km, days). */
const numberProps = (field: FieldMetadata<string>) => ({ ...getInputProps(field, { type: 'number' }), inputMode: 'numeric' as const })

type InspectionFields = { dueOn: string; lastDoneOn: string; everyMonths: string; daysBefore: string }

function InspectionForm({ reminder, lastResult }: { reminder: ReminderSchedule; lastResult?: SubmissionResult<string[]> }) {
	const { t } = useTranslation('customer')
	const [form, fields] = useForm<InspectionFields, InspectionReminderInput>({
		id: 'reminder-inspection',
		lastResult,
		defaultValue: {
			dueOn: reminder.dueOn ?? '',
			lastDoneOn: reminder.lastDoneOn ?? '',
			everyMonths: String(reminder.everyMonths ?? ''),
			daysBefore: String(reminder.daysBefore),
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: reminderSchemas.inspection }),
		shouldRevalidate: 'onInput',
	})
	return (
		<ReminderForm form={form} kind="inspection" help={t('reminders.inspectionHelp')}>
			<Field label={t('reminders.dueOn')} inputProps={getInputProps(fields.dueOn, { type: 'date' })} errors={fields.dueOn.errors} />
			<Field label={t('reminders.lastInspection')} inputProps={getInputProps(fields.lastDoneOn, { type: 'date' })} errors={fields.lastDoneOn.errors} />
			<Field label={t('reminders.inspectionEvery')} help={t('reminders.inspectionEveryHelp')} inputProps={numberProps(fields.everyMonths)} errors={fields.everyMonths.errors} />
			<Field label={t('reminders.daysBefore')} inputProps={numberProps(fields.daysBefore)} errors={fields.daysBefore.errors} />
		</ReminderForm>
	)
}

type ServiceFields = { lastDoneOn: string; lastDoneMileage: string; everyKm: string; everyMonths: string; daysBefore: string }

function ServiceForm({
	reminder,
	lastService,
	unit,
	lastResult,
}: {
	reminder: ReminderSchedule
	lastService: { on: string; mileage: number } | null
	unit: OdometerUnit
	lastResult?: SubmissionResult<string[]>
}) {
	// Kept in km, typed in the vehicle's unit (decision 0122).
	const inUnit = (km: number | null | undefined) => (km === null || km === undefined ? '' : String(fromKm(km, unit)))
	const { t } = useTranslation('customer')
	const [form, fields] = useForm<ServiceFields, ServiceReminderInput>({
		id: 'reminder-service',
		lastResult,
		defaultValue: {
			lastDoneOn: reminder.lastDoneOn ?? lastService?.on ?? '',
			lastDoneMileage: inUnit(reminder.lastDoneMileage ?? lastService?.mileage),
			everyKm: inUnit(reminder.everyKm),
			everyMonths: String(reminder.everyMonths ?? ''),
			daysBefore: String(reminder.daysBefore),
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: reminderSchemas.service }),
		shouldRevalidate: 'onInput',
	})
	return (
		<ReminderForm form={form} kind="service" help={t('reminders.serviceHelp')}>
			<Field label={t('reminders.lastServiceOn')} required inputProps={getInputProps(fields.lastDoneOn, { type: 'date' })} errors={fields.lastDoneOn.errors} />
			<Field label={t('reminders.lastServiceMileage', { unit: t(`unitLabel.${unit}`) })} required inputProps={{ ...numberProps(fields.lastDoneMileage), min: 0 }} errors={fields.lastDoneMileage.errors} />
			<Field label={t('reminders.serviceEveryKm', { unit: t(`unitLabel.${unit}`) })} required inputProps={numberProps(fields.everyKm)} errors={fields.everyKm.errors} />
			<Field label={t('reminders.serviceEveryMonths')} required inputProps={numberProps(fields.everyMonths)} errors={fields.everyMonths.errors} />
			<Field label={t('reminders.daysBefore')} inputProps={numberProps(fields.daysBefore)} errors={fields.daysBefore.errors} />
		</ReminderForm>
	)
}
