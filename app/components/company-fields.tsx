import { getInputProps } from '@conform-to/react'
import { useTranslation } from '~/i18n/translation'
import { Field, type ConformField } from './forms'

/**
 * A workshop's company: its name and its registry code, 8 digits or 10 (registration, and the
 * admin's correction). No maxLength: a longer paste is refused with a message, never cut.
 */
export function CompanyFields({ companyName, companyId, companyIdHelp }: { companyName: ConformField; companyId: ConformField; companyIdHelp: string }) {
	const { t } = useTranslation('auth')
	return (
		<>
			<Field label={t('register.companyName')} required inputProps={getInputProps(companyName, { type: 'text' })} errors={companyName.errors} />
			<Field
				label={t('register.companyId')}
				required
				help={companyIdHelp}
				inputProps={{ ...getInputProps(companyId, { type: 'text' }), inputMode: 'numeric', autoComplete: 'off' }}
				errors={companyId.errors}
			/>
		</>
	)
}
