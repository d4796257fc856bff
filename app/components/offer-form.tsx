import {
	getFormProps,
	getInputProps,
	getSelectProps,
	getTextareaProps,
	useForm,
	type FieldMetadata,
	type FormMetadata,
	type SubmissionResult,
} from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { type OfferLineKind, partQualities, type VatMode, vatModes } from '~/domain/service-flow/offer-kinds'
import { OfferLineSchema, offerTotals, type OfferLineInput } from '~/domain/service-flow/offer-lines'
import { MAX_WARRANTY_KM, MAX_WARRANTY_MONTHS, OfferSchema, type OfferFormDefaults, type OfferInput } from '~/domain/service-flow/offers'
import { useLanguage } from '~/i18n/use-language'
import { formatMoney, formatNumber } from '~/utils/format'
import { labourMinutes } from '~/domain/booking/offer-times'
import { uploadUrl, type HeldFile } from '~/uploads/upload-url'
import { Field, FileField, FormActions, FormAlert, FormSecurity, SelectField, TextareaField } from './forms'

/**
 * Making or changing an offer: one price, or lines of labour, parts and fees whose total the
 * server computes (issue 19); when it can start, how long it takes, until when it holds;
 * the offer's own warranty (the profile's to start with) and each part's quality (issue 32);
 * description, notes and an optional PDF. Lines are added and removed by Conform's intents,
 * which the server answers too, so the list grows and shrinks with JavaScript off. On a wide
 * screen each line is one row and the terms sit side by side (app.css, `.offer-form`).
 */
export function OfferForm({
	intent,
	defaults,
	attachmentUploadId,
	lastResult,
	attachmentErrors,
	attachmentHeld,
	submitLabel,
	limitNote,
	noTimes = false,
	hiddenFields = {},
}: {
	intent: 'make' | 'update'
	defaults?: OfferFormDefaults
	attachmentUploadId?: string | null
	lastResult?: SubmissionResult<string[]>
	attachmentErrors?: string[] | null
	/** The PDF held from the form's last sending, when it failed on another field. */
	attachmentHeld?: HeldFile[] | null
	submitLabel: string
	limitNote?: React.ReactNode
	/** The calendar had no free time to suggest (a workshop without opening hours). */
	noTimes?: boolean
	/** More of the form's hidden inputs (the price list item a drafted offer was filled from, issue 35). */
	hiddenFields?: Record<string, string>
}) {
	const { t } = useTranslation('workshop')
	// Typed by the form's fields (the schema's input hides the lines behind their clean-up).
	const [form, fields] = useForm<OfferFormDefaults, OfferInput>({
		id: `offer-${intent}`,
		lastResult,
		defaultValue: defaults ?? { vat: 'included' },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: OfferSchema }),
		shouldRevalidate: 'onInput',
	})
	const lines = fields.lines.getFieldList()
	const vat = fields.vat.value === 'added' ? 'added' : 'included'
	return (
		<Form method="post" encType="multipart/form-data" className="form offer-form" {...getFormProps(form)}>
			{/* Enter in a field sends the offer: the first submit button is the form's default, not "Add …". */}
			<button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
			<FormSecurity intent={intent} />
			{Object.entries(hiddenFields).map(([name, value]) => (
				<input key={name} type="hidden" name={name} value={value} />
			))}
			<FormAlert id={form.errorId} errors={form.errors} />
			{limitNote}
			{lines.length ? null : (
				<Field
					label={t('offer.price')}
					required
					help={t('offer.priceHelp')}
					inputProps={{ ...getInputProps(fields.price, { type: 'text' }), inputMode: 'decimal', autoComplete: 'off' }}
					errors={fields.price.errors}
				/>
			)}
			<OfferLinesEditor form={form} lines={fields.lines} legend={t('offer.linesTitle')} help={t('offer.linesHelp')} partQuality>
				<LinesVat lines={lines} vat={vat} field={fields.vat} />
			</OfferLinesEditor>
			<fieldset className="fieldset offer-form__terms">
				<legend>{t('offer.terms')}</legend>
				<Field label={t('offer.earliestStart')} inputProps={getInputProps(fields.earliestStart, { type: 'date' })} errors={fields.earliestStart.errors} />
				<Field
					label={t('offer.durationDays')}
					inputProps={{ ...getInputProps(fields.durationDays, { type: 'number' }), min: 1, max: 365, inputMode: 'numeric' }}
					errors={fields.durationDays.errors}
				/>
				<Field label={t('offer.validUntil')} help={t('offer.validUntilHelp')} inputProps={getInputProps(fields.validUntil, { type: 'date' })} errors={fields.validUntil.errors} />
			</fieldset>
			<OfferTimesFields fields={fields} lines={lines} noTimes={noTimes} />
			<fieldset className="fieldset offer-form__terms">
				<legend>{t('offer.warranty')}</legend>
				<p className="field__help offer-form__wide">{t('offer.warrantyHelp')}</p>
				<Field
					label={t('offer.warrantyWorkKm')}
					inputProps={{ ...getInputProps(fields.warrantyWorkKm, { type: 'number' }), min: 0, max: MAX_WARRANTY_KM, inputMode: 'numeric' }}
					errors={fields.warrantyWorkKm.errors}
				/>
				<Field
					label={t('offer.warrantyPartsMonths')}
					inputProps={{ ...getInputProps(fields.warrantyPartsMonths, { type: 'number' }), min: 0, max: MAX_WARRANTY_MONTHS, inputMode: 'numeric' }}
					errors={fields.warrantyPartsMonths.errors}
				/>
			</fieldset>
			<div className="offer-form__texts">
				<TextareaField label={t('offer.description')} help={t('offer.descriptionHelp')} textareaProps={getTextareaProps(fields.description)} errors={fields.description.errors} />
				<TextareaField label={t('offer.notes')} help={t('offer.notesHelp')} textareaProps={{ ...getTextareaProps(fields.notes), rows: 3 }} errors={fields.notes.errors} />
			</div>
			<FileField
				id={`offer-${intent}-attachment`}
				name="attachment"
				label={t('offer.attachment')}
				help={t('offer.attachmentHelp')}
				accept="pdf"
				errors={attachmentErrors}
				held={attachmentHeld}
				current={
					attachmentUploadId
						? { href: uploadUrl(attachmentUploadId), label: t('offer.currentAttachment'), removeName: 'removeAttachment', removeLabel: t('offer.removeAttachment') }
						: null
				}
			/>
			<FormActions submit={submitLabel} large />
		</Form>
	)
}

/**
 * The offer's time (issue 33): hours and minutes in the bay (left empty: the labour lines' hours,
 * shown beside), up to three proposed starts in Tallinn time (filled with the calendar's next free
 * ones for a new offer), or any free time until the offer's validity.
 */
function OfferTimesFields({
	fields,
	lines,
	noTimes,
}: {
	fields: ReturnType<typeof useForm<OfferFormDefaults, OfferInput>>[1]
	lines: Array<FieldMetadata<LineFields>>
	noTimes: boolean
}) {
	const { t } = useTranslation('booking')
	const language = useLanguage()
	const complete = lines.map((line) => OfferLineSchema.safeParse(line.value).data).filter(Boolean) as OfferLineInput[]
	const labour = labourMinutes(complete)
	const starts = fields.proposedStarts.getFieldList()
	return (
		<fieldset className="fieldset offer-form__times">
			<legend>{t('offerTimes.legend')}</legend>
			<p className="field__help">{t('offerTimes.help')}</p>
			{noTimes ? <p className="notice">{t('offerTimes.noTimes')}</p> : null}
			<div className="offer-times__bay">
				<Field
					label={t('offerTimes.bayHours')}
					help={labour ? t('offerTimes.labourHours', { duration: formatNumber(labour / 60, language) + ' h' }) : t('offerTimes.bayHelp')}
					inputProps={{ ...getInputProps(fields.bayHours, { type: 'number' }), min: 0, max: 24, inputMode: 'numeric' }}
					errors={fields.bayHours.errors}
				/>
				<Field
					label={t('offerTimes.bayMinutes')}
					inputProps={{ ...getInputProps(fields.bayMinutes, { type: 'number' }), min: 0, max: 59, step: 5, inputMode: 'numeric' }}
					errors={fields.bayMinutes.errors}
				/>
			</div>
			<div className="offer-times__starts">
				{starts.map((start, index) => (
					<Field
						key={start.key}
						label={t('offerTimes.start', { number: index + 1 })}
						inputProps={getInputProps(start, { type: 'datetime-local' })}
						errors={start.errors}
					/>
				))}
			</div>
			<FormAlert id={fields.proposedStarts.errorId} errors={fields.proposedStarts.errors} />
			<label className="checkbox">
				<input {...getInputProps(fields.anyFreeTime, { type: 'checkbox' })} />
				<span>{t('offerTimes.anyFreeTime')}</span>
			</label>
		</fieldset>
	)
}

type LineFields = { kind: string; description: string; reference: string; quantity: string; unitPrice: string }
/** An offer's part line's fields besides (extra work's lines have none): Conform's fieldset has any name it is asked for. */
type PartFields = { quality: FieldMetadata<string>; used: FieldMetadata<string> }

/** The form's buttons that add and remove lines (Conform's intents; the server answers them too). */
type LineIntents = { insert: FormMetadata['insert']; remove: FormMetadata['remove'] }

/**
 * The list of an offer's or extra work's lines: each line's fields and its remove button, the
 * buttons that add labour, a part or a fee, what follows them (the VAT choice, the total) and the
 * list's own errors (too many lines, a total too large, none at all).
 */
export function OfferLinesEditor({
	form,
	lines,
	legend,
	help,
	partQuality = false,
	children,
}: {
	form: LineIntents
	lines: FieldMetadata<LineFields[]>
	legend: string
	help?: string
	/** A part line asks its quality and whether it is used (an offer's lines; extra work's do not). */
	partQuality?: boolean
	children?: React.ReactNode
}) {
	const { t } = useTranslation('workshop')
	const list = lines.getFieldList()
	const addButton = (kind: OfferLineKind, label: string) => (
		<button {...form.insert.getButtonProps({ name: lines.name, defaultValue: { kind, quantity: kind === 'labour' ? '' : '1' } })} className="button button--ghost button--small">
			{label}
		</button>
	)
	return (
		<fieldset className="fieldset offer-lines">
			<legend>{legend}</legend>
			{help ? <p className="field__help">{help}</p> : null}
			{list.length ? (
				<ol className="offer-lines__list">
					{list.map((line, index) => (
						<li key={line.key} className="offer-lines__line">
							<OfferLineFields line={line} partQuality={partQuality} />
							<button {...form.remove.getButtonProps({ name: lines.name, index })} className="button button--ghost button--small button--danger-text">
								{t('offer.removeLine', { number: index + 1 })}
							</button>
						</li>
					))}
				</ol>
			) : null}
			<div className="offer-lines__add">
				{addButton('labour', t('offer.addLabour'))}
				{addButton('part', t('offer.addPart'))}
				{addButton('fee', t('offer.addFee'))}
			</div>
			{children}
			<FormAlert id={lines.errorId} errors={lines.errors} />
		</fieldset>
	)
}

/**
 * With lines, the VAT choice (included in the prices, or added) and the total; without, the VAT
 * mode travels hidden (an offer of one price, a form not filled yet). The offer's and the price
 * list's forms.
 */
export function LinesVat({ lines, vat, field }: { lines: Array<FieldMetadata<LineFields>>; vat: VatMode; field: FieldMetadata<VatMode | undefined> }) {
	const { t } = useTranslation('workshop')
	if (!lines.length) return <input type="hidden" name={field.name} value={vat} />
	return (
		<>
			<SelectField
				label={t('offer.vat')}
				options={vatModes.map((mode) => ({ value: mode, label: t(mode === 'included' ? 'offer.vatIncluded' : 'offer.vatAdded') }))}
				selectProps={getSelectProps(field)}
				errors={field.errors}
			/>
			<LinesTotal lines={lines} vat={vat} />
		</>
	)
}

/** The total as the server will compute it, from the lines that are complete so far. */
export function LinesTotal({ lines, vat }: { lines: Array<FieldMetadata<LineFields>>; vat: VatMode }) {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const complete = lines.map((line) => OfferLineSchema.safeParse(line.value).data).filter(Boolean) as OfferLineInput[]
	const total = complete.length ? offerTotals(complete, vat).totalCents : null
	return (
		<p className="offer-lines__total" aria-live="polite">
			{total !== null ? t('offer.linesTotal', { total: formatMoney(total, language) }) : null}
		</p>
	)
}

/** One line's fields, labelled for its kind: hours and an hourly rate for labour, a part's brand or OE number. */
function OfferLineFields({ line, partQuality }: { line: FieldMetadata<LineFields>; partQuality: boolean }) {
	const { t } = useTranslation(['workshop', 'common'])
	const parts = line.getFieldset() as ReturnType<typeof line.getFieldset> & PartFields
	const kind = (parts.kind.value ?? 'labour') as OfferLineKind
	return (
		<fieldset className="offer-lines__fields">
			<legend className="offer-lines__kind">{t(`common:offerTerms.${kind}`)}</legend>
			<input type="hidden" name={parts.kind.name} value={kind} />
			<Field
				className="offer-lines__description"
				label={t('offer.lineDescription')}
				required
				inputProps={getInputProps(parts.description, { type: 'text' })}
				errors={parts.description.errors}
			/>
			{kind === 'part' ? (
				<Field label={t('offer.lineReference')} inputProps={getInputProps(parts.reference, { type: 'text' })} errors={parts.reference.errors} />
			) : null}
			{kind === 'part' && partQuality ? (
				<>
					<SelectField
						className="offer-lines__quality"
						label={t('offer.quality')}
						required
						placeholder={t('offer.qualityChoose')}
						options={partQualities.map((quality) => ({ value: quality, label: t(`common:partQuality.${quality}`) }))}
						selectProps={getSelectProps(parts.quality)}
						errors={parts.quality.errors}
					/>
					<div className="field offer-lines__used">
						<label className="checkbox">
							<input {...getInputProps(parts.used, { type: 'checkbox' })} />
							<span>{t('offer.used')}</span>
						</label>
					</div>
				</>
			) : null}
			<div className="offer-lines__numbers">
				<Field
					label={t(kind === 'labour' ? 'offer.hours' : 'offer.quantity')}
					required
					inputProps={{ ...getInputProps(parts.quantity, { type: 'text' }), inputMode: 'decimal', autoComplete: 'off' }}
					errors={parts.quantity.errors}
				/>
				<Field
					label={t(kind === 'labour' ? 'offer.hourlyRate' : 'offer.unitPrice')}
					required
					inputProps={{ ...getInputProps(parts.unitPrice, { type: 'text' }), inputMode: 'decimal', autoComplete: 'off' }}
					errors={parts.unitPrice.errors}
				/>
			</div>
			<FormAlert id={parts.kind.errorId} errors={parts.kind.errors} />
		</fieldset>
	)
}
