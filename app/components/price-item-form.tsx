import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { engineBands } from '~/domain/pricing/price-kinds'
import { type PriceItemFormValues } from '~/domain/pricing/price-items'
import { MAX_INCLUDED_LENGTH, PriceItemSchema, type PriceItemInput } from '~/domain/pricing/price-lists'
import { vehicleClasses } from '~/domain/service-flow/vehicle-kinds'
import { Field, FormActions, FormAlert, FormSecurity, type Option, SelectField, TextareaField } from './forms'
import { LinesVat, OfferLinesEditor } from './offer-form'

/**
 * A price list's item as its workshop fills it in (issue 35): what it is for, its lines as an
 * offer's, with the same editor (lines are added and removed by Conform's intents, so with
 * JavaScript off too), its time, its days, what it includes, and whether it sends instant offers.
 */
export function PriceItemForm({
	id,
	itemSlug,
	services,
	defaults,
	lastResult,
	submitLabel,
}: {
	id: string
	/** The item changed; none for a new one. */
	itemSlug?: string
	services: Option[]
	defaults: Partial<PriceItemFormValues>
	lastResult?: SubmissionResult<string[]>
	submitLabel: string
}) {
	const { t } = useTranslation(['workshop', 'common'])
	const [form, fields] = useForm<PriceItemFormValues, PriceItemInput>({
		id,
		lastResult,
		defaultValue: defaults,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: PriceItemSchema }),
		shouldRevalidate: 'onInput',
	})
	const lines = fields.lines.getFieldList()
	const vat = fields.vat.value === 'added' ? 'added' : 'included'
	return (
		<Form method="post" className="form price-item-form" {...getFormProps(form)}>
			{/* Enter in a field saves the item: the first submit button is the form's default, not "Add …". */}
			<button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
			<FormSecurity intent="save" />
			{itemSlug ? <input type="hidden" name="item" value={itemSlug} /> : null}
			<FormAlert id={form.errorId} errors={form.errors} />
			<fieldset className="fieldset">
				<legend>{t('priceList.what')}</legend>
				<div className="form-grid form-grid--two">
					<SelectField
						label={t('priceList.service')}
						required
						placeholder={t('priceList.chooseService')}
						options={services}
						selectProps={getSelectProps(fields.serviceId)}
						errors={fields.serviceId.errors}
					/>
					<SelectField
						label={t('priceList.vehicleClass')}
						required
						options={vehicleClasses.map((value) => ({ value, label: t(`common:vehicleClass.${value}`) }))}
						selectProps={getSelectProps(fields.vehicleClass)}
						errors={fields.vehicleClass.errors}
					/>
					<SelectField
						label={t('priceList.engineBand')}
						help={t('priceList.engineBandHelp')}
						options={engineBands.map((value) => ({ value, label: t(`common:engineBand.${value}`) }))}
						selectProps={getSelectProps(fields.engineBand)}
						errors={fields.engineBand.errors}
					/>
				</div>
			</fieldset>
			<OfferLinesEditor form={form} lines={fields.lines} legend={t('priceList.lines')} help={t('priceList.linesHelp')} partQuality>
				<LinesVat lines={lines} vat={vat} field={fields.vat} />
			</OfferLinesEditor>
			<fieldset className="fieldset">
				<legend>{t('priceList.timeAndDays')}</legend>
				<div className="form-grid form-grid--two">
					<Field
						label={t('priceList.durationHours')}
						required
						help={t('priceList.durationHelp')}
						inputProps={{ ...getInputProps(fields.durationHours, { type: 'number' }), min: 0, max: 720, inputMode: 'numeric' }}
						errors={fields.durationHours.errors}
					/>
					<Field
						label={t('priceList.durationMinutes')}
						inputProps={{ ...getInputProps(fields.durationMinutes, { type: 'number' }), min: 0, max: 59, step: 5, inputMode: 'numeric' }}
						errors={fields.durationMinutes.errors}
					/>
					<Field label={t('priceList.validFromLabel')} required inputProps={getInputProps(fields.validFrom, { type: 'date' })} errors={fields.validFrom.errors} />
					<Field
						label={t('priceList.validUntilLabel')}
						help={t('priceList.validUntilHelp')}
						inputProps={getInputProps(fields.validUntil, { type: 'date' })}
						errors={fields.validUntil.errors}
					/>
				</div>
			</fieldset>
			<TextareaField
				label={t('priceList.included')}
				help={t('priceList.includedHelp')}
				textareaProps={{ ...getTextareaProps(fields.included), rows: 3, maxLength: MAX_INCLUDED_LENGTH }}
				errors={fields.included.errors}
			/>
			<div className="field">
				<label className="checkbox">
					<input {...getInputProps(fields.sendsInstant, { type: 'checkbox' })} aria-describedby={`${id}-instant-help`} />
					<span>{t('priceList.sendsInstant')}</span>
				</label>
				<p id={`${id}-instant-help`} className="field__help">
					{t('priceList.sendsInstantHelp')}
				</p>
			</div>
			<FormActions submit={submitLabel} large />
		</Form>
	)
}
