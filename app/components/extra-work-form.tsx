import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ExtraWorkSchema, type ExtraWorkInput } from '~/domain/service-flow/extra-work-schema'
import { type VatMode } from '~/domain/service-flow/offer-kinds'
import { type HeldFile } from '~/uploads/upload-url'
import { FileField, FormActions, FormAlert, FormSecurity, TextareaField } from './forms'
import { LinesTotal, OfferLinesEditor } from './offer-form'

type ExtraWorkFormFields = {
	reason: string
	lines: Array<{
		kind: string
		description: string
		reference: string
		quantity: string
		unitPrice: string
	}>
}

/**
 * The chosen workshop's request for extra work: the reason, lines as an offer's (added and removed
 * with JavaScript off too), up to three photos. Priced with the offer's VAT mode.
 */
export function ExtraWorkForm({
	vatMode,
	lastResult,
	imageErrors,
	held,
}: {
	vatMode: VatMode
	lastResult?: SubmissionResult<string[]>
	imageErrors?: string[] | null
	held?: HeldFile[] | null
}) {
	const { t } = useTranslation('workshop')
	const [form, fields] = useForm<ExtraWorkFormFields, ExtraWorkInput>({
		id: 'extra-work-form',
		lastResult,
		defaultValue: { lines: [{ kind: 'labour', quantity: '' }] },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ExtraWorkSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<Form method="post" encType="multipart/form-data" className="form offer-form" {...getFormProps(form)}>
			{/* Enter in a field sends the form: the first submit button is its default, not "Add …". */}
			<button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
			<FormSecurity intent="askExtraWork" />
			<FormAlert id={form.errorId} errors={form.errors} />
			<TextareaField
				label={t('extraWork.reason')}
				required
				help={t('extraWork.reasonHelp')}
				textareaProps={{ ...getTextareaProps(fields.reason), rows: 3 }}
				errors={fields.reason.errors}
			/>
			<OfferLinesEditor
				form={form}
				lines={fields.lines}
				legend={t('extraWork.lines')}
				help={t('extraWork.vatNote', {
					vat: t(vatMode === 'included' ? 'offer.vatIncluded' : 'offer.vatAdded'),
				})}
			>
				<LinesTotal lines={fields.lines.getFieldList()} vat={vatMode} />
			</OfferLinesEditor>
			<FileField
				id="extra-work-images"
				name="images"
				label={t('extraWork.photos')}
				help={t('common:upload.imagesHelp')}
				accept="images"
				multiple
				errors={imageErrors}
				held={held}
			/>
			<FormActions submit={t('extraWork.submit')} />
		</Form>
	)
}
