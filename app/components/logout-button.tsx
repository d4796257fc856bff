import { Form } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { FormSecurity } from './forms'

/** Log out is a small form (POST with the CSRF token), styled as a link or a button. */
export function LogoutButton({ className = 'button button--ghost' }: { className?: string }) {
	const { t } = useTranslation('auth')
	return (
		<Form method="post" action="/logout" className="logout-form">
			<FormSecurity />
			<button type="submit" className={className}>
				{t('logout.button')}
			</button>
		</Form>
	)
}
