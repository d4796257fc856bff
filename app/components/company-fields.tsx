import { getInputProps } from '@conform-to/react'
import { useTranslation } from '~/i18n/translation'
import { Field, type ConformField } from './forms'

/** A workshop's company: its name and its 10-digit registry code (registration, and the admin's correction). */
export function CompanyFields({ companyName, companyId, companyIdHelp }: { companyName: ConformField; companyId: ConformField; companyIdHelp: string }) {
	const { t } = useTranslation('auth')
	return (
		<>
			<Field label={t('register.companyName')} required inputProps={getInputProps(companyName, { type: 'text' })} errors={companyName.errors} />
			<Field
				label={t('register.companyId')}
				required
				help={companyIdHelp}
				inputProps={{ ...getInputProps(companyId, { type: 'text' }), inputMode: 'numeric', maxLength: 10 }}
				errors={companyId.errors}
			/>
		</>
	)
}
