import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { OfferSchema } from '~/domain/offers'
import { uploadUrl } from '~/utils/upload-url'
import { ErrorList, Field, FormAlert, FormSecurity, StatusButton, TextareaField, useIsPending } from './forms'

/** Making or changing an offer: price, description, notes and an optional PDF. */
export function OfferForm({
	intent,
	defaults,
	attachmentUploadId,
	lastResult,
	attachmentErrors,
	submitLabel,
	limitNote,
}: {
	intent: 'make' | 'update'
	defaults?: { price: string; description: string; notes: string }
	attachmentUploadId?: string | null
	lastResult?: SubmissionResult<string[]>
	attachmentErrors?: string[] | null
	submitLabel: string
	limitNote?: React.ReactNode
}) {
	const { t } = useTranslation('workshop')
	const isPending = useIsPending()
	const [form, fields] = useForm({
		id: `offer-${intent}`,
		lastResult,
		defaultValue: defaults,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: OfferSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<Form method="post" encType="multipart/form-data" className="form" {...getFormProps(form)}>
			<FormSecurity />
			<input type="hidden" name="intent" value={intent} />
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
			<div className="field">
				<label htmlFor={`offer-${intent}-attachment`} className="field__label">
					{t('offer.attachment')}
				</label>
				<input
					id={`offer-${intent}-attachment`}
					name="attachment"
					type="file"
					accept="application/pdf"
					className="field__input field__input--file"
					aria-describedby={`offer-${intent}-attachment-help offer-${intent}-attachment-error`}
					aria-invalid={attachmentErrors?.length ? true : undefined}
				/>
				<p id={`offer-${intent}-attachment-help`} className="field__help">
					{t('offer.attachmentHelp')}
				</p>
				{attachmentUploadId ? (
					<p className="field__help">
						<a href={uploadUrl(attachmentUploadId)} download>
							{t('offer.currentAttachment')}
						</a>{' '}
						<label className="checkbox checkbox--inline">
							<input type="checkbox" name="removeAttachment" value="yes" />
							<span>{t('offer.removeAttachment')}</span>
						</label>
					</p>
				) : null}
				<ErrorList id={`offer-${intent}-attachment-error`} errors={attachmentErrors} />
			</div>
			<div className="form-actions">
				<StatusButton type="submit" status={isPending ? 'pending' : 'idle'} className="button--primary button--large">
					{submitLabel}
				</StatusButton>
			</div>
		</Form>
	)
}
