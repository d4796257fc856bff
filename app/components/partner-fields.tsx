import { getInputProps, getTextareaProps } from '@conform-to/react'
import { useTranslation } from '~/i18n/translation'
import { PARTNER_LIMITS } from '~/domain/partners/partners'
import { type ConformField, Field, TextareaField } from './forms'

/** A partner's fields (/admin/partners): issuing a key and changing a partner ask the same. */
export function PartnerFields({ fields }: { fields: { name: ConformField; origins: ConformField; rateLimitPerMinute: ConformField } }) {
	const { t } = useTranslation('admin')
	return (
		<>
			<Field
				label={t('partners.name')}
				required
				help={t('partners.nameHelp')}
				inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }}
				errors={fields.name.errors}
			/>
			<TextareaField
				label={t('partners.origins')}
				required
				help={t('partners.originsHelp')}
				textareaProps={{ ...getTextareaProps(fields.origins), rows: 3, spellCheck: false, autoCapitalize: 'none' }}
				errors={fields.origins.errors}
			/>
			<Field
				label={t('partners.rateLimit')}
				required
				help={t('partners.rateLimitHelp', { min: PARTNER_LIMITS.minPerMinute, max: PARTNER_LIMITS.maxPerMinute })}
				inputProps={{ ...getInputProps(fields.rateLimitPerMinute, { type: 'text' }), inputMode: 'numeric', autoComplete: 'off' }}
				errors={fields.rateLimitPerMinute.errors}
			/>
		</>
	)
}
