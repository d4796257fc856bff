import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { OfferSchema } from '~/domain/service-flow/offers'
import { uploadUrl, type HeldFile } from '~/utils/upload-url'
import { Field, FileField, FormActions, FormAlert, FormSecurity, TextareaField } from './forms'

/** Making or changing an offer: price, description, notes and an optional PDF. */
export function OfferForm({
	intent,
	defaults,
	attachmentUploadId,
	lastResult,
	attachmentErrors,
	attachmentHeld,
	submitLabel,
	limitNote,
}: {
	intent: 'make' | 'update'
	defaults?: { price: string; description: string; notes: string }
	attachmentUploadId?: string | null
	lastResult?: SubmissionResult<string[]>
	attachmentErrors?: string[] | null
	/** The PDF held from the form's last sending, when it failed on another field. */
	attachmentHeld?: HeldFile[] | null
	submitLabel: string
	limitNote?: React.ReactNode
}) {
	const { t } = useTranslation('workshop')
	const [form, fields] = useForm({
		id: `offer-${intent}`,
		lastResult,
		defaultValue: defaults,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: OfferSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<Form method="post" encType="multipart/form-data" className="form" {...getFormProps(form)}>
			<FormSecurity intent={intent} />
			<FormAlert id={form.errorId} errors={form.errors} />
			{limitNote}
			<Field
				label={t('offer.price')}
				required
				help={t('offer.priceHelp')}
				inputProps={{ ...getInputProps(fields.price, { type: 'text' }), inputMode: 'decimal', autoComplete: 'off' }}
				errors={fields.price.errors}
			/>
			<TextareaField label={t('offer.description')} help={t('offer.descriptionHelp')} textareaProps={getTextareaProps(fields.description)} errors={fields.description.errors} />
			<TextareaField label={t('offer.notes')} help={t('offer.notesHelp')} textareaProps={{ ...getTextareaProps(fields.notes), rows: 3 }} errors={fields.notes.errors} />
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
