import { useTranslation } from '~/i18n/translation'
import { PasskeyPostForm, passkeyFailureText, usePasskeyPost } from './passkey-form'
import { usePasskeySupport } from './passkeys'

/**
 * "Confirm with a passkey" (decision 0156): a signed-in person proves it is them with one of their
 * own passkeys, on the administrator's step-up page and before deleting an account without a
 * password. The browser's answer goes to the page's own action (`intent`) in a form post. Without
 * JavaScript or WebAuthn the button is not there and the note says what to do instead.
 */
export function PasskeyConfirm({ intent, label, error, redirectTo }: { intent: string; label: string; error?: string; redirectTo?: string | null }) {
	const { t } = useTranslation('auth')
	const supported = usePasskeySupport()
	const { formRef, problem, busy, run } = usePasskeyPost(intent, 'confirm', (failure) => passkeyFailureText(failure) ?? t('stepUp.passkeyCancelled'))
	return (
		<PasskeyPostForm formRef={formRef} intent={intent} redirectTo={redirectTo} problem={problem} error={error} className="passkey-confirm">
			{supported ? (
				<button type="button" className="button button--primary" disabled={busy} onClick={() => void run()}>
					{label}
				</button>
			) : (
				<p className="form-note">{t('stepUp.passkeyNeedsJavaScript')}</p>
			)}
		</PasskeyPostForm>
	)
}
