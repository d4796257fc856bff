import { Form, useNavigation } from 'react-router'
import { useCallback, useRef, useState, type ReactNode, type RefObject } from 'react'
import { useTranslation } from '~/i18n/translation'
import { translateMessage } from '~/utils/messages'
import { REDIRECT_TO } from '~/utils/safe-redirect'
import { FormSecurity } from './forms'
import { passkeyCeremony, PasskeyError, type CeremonyPurpose } from './passkeys'

/**
 * The form that carries a passkey ceremony's answer to the page's own action (`intent`), as the
 * sign-in and the confirmations post it. `run` starts the ceremony and posts its answer; `describe`
 * says what a failure shows (null: nothing, as for a cancelled or quiet attempt).
 */
export function usePasskeyPost(intent: string, purpose: CeremonyPurpose, describe: (failure: unknown, autofill: boolean) => string | null) {
	const formRef = useRef<HTMLFormElement>(null)
	const [problem, setProblem] = useState<string | null>(null)
	const navigation = useNavigation()
	const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
	const describeRef = useRef(describe)
	describeRef.current = describe
	const run = useCallback(
		async (autofill = false) => {
			const form = formRef.current
			if (!form) return
			try {
				const credential = await passkeyCeremony(purpose, form, { autofill })
				form.querySelector<HTMLInputElement>('input[name="credential"]')!.value = credential
				setProblem(null)
				form.requestSubmit()
			} catch (failure) {
				const text = describeRef.current(failure, autofill)
				if (text) setProblem(text)
			}
		},
		[purpose],
	)
	return { formRef, problem, busy, run }
}

/** The ceremony's failure as text: the server's or the browser's message, null when the person cancelled it. */
export function passkeyFailureText(failure: unknown): string | null {
	if (failure instanceof PasskeyError) return failure.cancelled ? null : failure.message
	return failure instanceof Error ? failure.message : String(failure)
}

export function PasskeyPostForm({
	formRef,
	intent,
	redirectTo,
	problem,
	error,
	className,
	children,
}: {
	formRef: RefObject<HTMLFormElement>
	intent: string
	redirectTo?: string | null
	problem: string | null
	/** The action's answer to the last post (a message key). */
	error?: string
	className: string
	children: ReactNode
}) {
	const { t } = useTranslation()
	const shown = problem ?? (error ? translateMessage(t, error) : null)
	return (
		<Form method="post" ref={formRef} className={className}>
			<FormSecurity intent={intent} />
			{redirectTo ? <input type="hidden" name={REDIRECT_TO} value={redirectTo} /> : null}
			<input type="hidden" name="credential" defaultValue="" />
			{shown ? (
				<div className="form-alert" role="alert">
					<p>{shown}</p>
				</div>
			) : null}
			{children}
		</Form>
	)
}
