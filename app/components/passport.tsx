import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { type HistoryEntry, type Warranty, type WarrantyState } from '~/domain/service-flow/passport'
import { distanceText, MAX_MILEAGE, type OdometerUnit } from '~/domain/service-flow/vehicle-kinds'
import { type ServiceRecordInput, ServiceRecordSchema, type VehicleLinkInput } from '~/domain/service-flow/passport-schema'
import { useLanguage } from '~/i18n/use-language'
import { formatDate } from '~/utils/format'
import { type HeldFile } from '~/uploads/upload-url'
import { ConfirmAction } from './confirm-action'
import { Field, FileField, FormActions, FormAlert, FormSecurity, IntentButton, TextareaField } from './forms'

/**
 * The vehicle passport's parts (issue 20): the warranties, the form for work done elsewhere, the
 * private links (the history itself: service-history.tsx). Readings and a work warranty's distance
 * are kept in km and shown, as the forms take them, in the vehicle's odometer unit (decision 0122).
 */

const stateClass: Record<WarrantyState, string> = { valid: '', expiring: ' warranty__part--expiring', expired: ' warranty__part--expired' }

export function WarrantyList({ warranties, unit }: { warranties: Warranty[]; unit: OdometerUnit }) {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	if (!warranties.length) return <p className="empty">{t('passport.noWarranty')}</p>
	const stateLabel = (state: WarrantyState) => (state === 'valid' ? null : <strong className={`badge badge--warranty-${state}`}>{t(`passport.${state}`)}</strong>)
	return (
		<ul className="item-list warranty">
			{warranties.map((warranty) => (
				<li key={warranty.offerId} className="item warranty__item">
					<div className="item__main">
						<h3 className="item__title">{warranty.title}</h3>
						<p className="item__meta">
							{warranty.workshopName} · {t('passport.completedOn', { date: formatDate(warranty.completedOn, language) })}
						</p>
						<ul className="warranty__parts">
							{warranty.work ? (
								<li className={`warranty__part${stateClass[warranty.work.state]}`}>
									{t('passport.workWarranty', { distance: distanceText(t, warranty.workKm ?? 0, unit) })}{' '}
									{warranty.work.state === 'expired'
										? null
										: t('passport.workLeft', { left: distanceText(t, warranty.work.leftKm, unit), until: distanceText(t, warranty.work.untilKm, unit) })}{' '}
									{stateLabel(warranty.work.state)}
								</li>
							) : warranty.workKm ? (
								<li className="warranty__part">{t('passport.workWarrantyUnknown', { distance: distanceText(t, warranty.workKm, unit) })}</li>
							) : null}
							{warranty.parts ? (
								<li className={`warranty__part${stateClass[warranty.parts.state]}`}>
									{t('passport.partsWarranty', { count: warranty.partsMonths ?? 0 })}{' '}
									{warranty.parts.state === 'expired'
										? t('passport.partsEnded', { date: formatDate(warranty.parts.until, language) })
										: t('passport.partsLeft', { date: formatDate(warranty.parts.until, language), count: warranty.parts.daysLeft })}{' '}
									{stateLabel(warranty.parts.state)}
								</li>
							) : null}
						</ul>
					</div>
				</li>
			))}
		</ul>
	)
}

type RecordFields = { performedOn: string; mileage: string; description: string; workshopName: string; price: string }

/** Work done elsewhere, added by the owner: when, mileage, what, where, price, a PDF. */
export function ServiceRecordForm({
	unit,
	lastResult,
	documentErrors,
	held,
}: {
	unit: OdometerUnit
	lastResult?: SubmissionResult<string[]>
	documentErrors?: string[] | null
	held?: HeldFile[] | null
}) {
	const { t } = useTranslation('customer')
	const [form, fields] = useForm<RecordFields, ServiceRecordInput>({
		id: 'service-record',
		lastResult,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ServiceRecordSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<Form method="post" encType="multipart/form-data" className="form" {...getFormProps(form)}>
			<FormSecurity intent="addRecord" />
			<FormAlert id={form.errorId} errors={form.errors} />
			<div className="form-grid form-grid--two">
				<Field label={t('passport.performedOn')} required inputProps={getInputProps(fields.performedOn, { type: 'date' })} errors={fields.performedOn.errors} />
				<Field
					label={t('passport.mileage', { unit: t(`unitLabel.${unit}`) })}
					required
					inputProps={{ ...getInputProps(fields.mileage, { type: 'number' }), min: 0, max: MAX_MILEAGE, inputMode: 'numeric' }}
					errors={fields.mileage.errors}
				/>
			</div>
			<TextareaField label={t('passport.description')} required help={t('passport.descriptionHelp')} textareaProps={{ ...getTextareaProps(fields.description), rows: 3 }} errors={fields.description.errors} />
			<div className="form-grid form-grid--two">
				<Field label={t('passport.workshopName')} inputProps={getInputProps(fields.workshopName, { type: 'text' })} errors={fields.workshopName.errors} />
				<Field label={t('passport.price')} inputProps={{ ...getInputProps(fields.price, { type: 'text' }), inputMode: 'decimal' }} errors={fields.price.errors} />
			</div>
			<FileField id="service-record-document" name="document" label={t('passport.document')} help={t('passport.documentHelp')} accept="pdf" errors={documentErrors} held={held} />
			<FormActions submit={t('passport.addRecord')} />
		</Form>
	)
}

/** Each private link's texts (a key prefix with link, linkHelp, download, make, renew, revoke) and its forms' intents. */
const privateLinks = { calendar: 'passport.calendar', history: 'passport.share' } as const

/**
 * A private link of the vehicle (its calendar, its history for a buyer): the link to copy while it
 * exists, the owner's own download, and making, renewing and turning it off.
 */
export function PrivateLink({ kind, link, download }: { kind: VehicleLinkInput['link']; link: string | null; download: string }) {
	const { t } = useTranslation('customer')
	const texts = privateLinks[kind]
	const id = `${kind}-link`
	return (
		<>
			{link ? (
				<>
					<label className="field__label" htmlFor={id}>
						{t(`${texts}.link`)}
					</label>
					<input id={id} className="field__input private-link" readOnly value={link} aria-describedby={`${id}-help`} />
					<p id={`${id}-help`} className="field__help">
						{t(`${texts}.linkHelp`)}
					</p>
				</>
			) : null}
			<div className="private-link__actions">
				<a href={download} className="button button--ghost button--small" download>
					{t(`${texts}.download`)}
				</a>
				<IntentButton intent="vehicleLink" fields={{ link: kind, action: 'make' }}>
					{link ? t(`${texts}.renew`) : t(`${texts}.make`)}
				</IntentButton>
				{link ? (
					<IntentButton intent="vehicleLink" fields={{ link: kind, action: 'revoke' }}>
						{t(`${texts}.revoke`)}
					</IntentButton>
				) : null}
			</div>
		</>
	)
}

/** Removing a record of work done elsewhere from the history, once the owner confirms it. */
export function RemoveRecordAction({ entry }: { entry: HistoryEntry }) {
	const { t } = useTranslation('customer')
	if (entry.source !== 'record') return null
	return (
		<ConfirmAction
			id={`remove-record-${entry.id}`}
			label={t('passport.removeRecord')}
			title={t('passport.removeRecordTitle')}
			description={t('passport.removeRecordText', { what: entry.title })}
			confirmLabel={t('passport.removeRecordConfirm')}
			fields={{ intent: 'deleteRecord', record: entry.id }}
			triggerClassName="button button--ghost button--small button--danger-text"
			danger
		/>
	)
}
