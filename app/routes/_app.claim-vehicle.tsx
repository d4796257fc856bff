import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { Field, FormActions, FormAlert, FormSecurity } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { ClaimVehicleSchema, normalizeTransferCode } from '~/domain/service-flow/vehicle-transfer'
import { claimVehicle } from '~/domain/service-flow/vehicle-transfer.server'
import { normalizeRegistrationNumber, PLATE } from '~/domain/service-flow/vehicles'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * A buyer takes over the car they bought (issue 32, decision 0123) with the seller's transfer code:
 * typed, or filled in by the link the seller gave (?code=). Reached from "already registered" on
 * the vehicle form too (?plate=).
 */
export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'customer')
	const url = new URL(request.url)
	const plate = normalizeRegistrationNumber(url.searchParams.get('plate') ?? '')
	return {
		meta: { title: t('transfer.claimTitle') },
		code: normalizeTransferCode(url.searchParams.get('code') ?? '').slice(0, 40),
		plate: PLATE.test(plate) ? plate : null,
	}
}

export async function action({ request }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: ClaimVehicleSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		const vehicleId = await claimVehicle(user.id, submission.value.code)
		return redirectWithToast(`/vehicle-details/${encodeId(vehicleId)}`, { type: 'success', key: 'customer:transfer.claimed' }, { request })
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission })
	}
}

export const meta = routeMeta<typeof loader>()

export default function ClaimVehiclePage() {
	const { t } = useTranslation('customer')
	const { code, plate } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'claim-vehicle',
		lastResult: actionData?.result,
		defaultValue: { code },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ClaimVehicleSchema }),
		// On input, not on blur: a message vanishing on blur would move the button away from under the click.
		shouldRevalidate: 'onInput',
	})
	return (
		<>
			<PageHeader title={t('transfer.claimTitle')} subtitle={plate ? t('transfer.claimPlate', { plate }) : t('transfer.claimSubtitle')} />
			<Form method="post" className="form card" {...getFormProps(form)}>
				<FormSecurity />
				<FormAlert id={form.errorId} errors={form.errors} />
				<p>{t('transfer.claimText')}</p>
				<Field
					label={t('transfer.code')}
					required
					help={t('transfer.codeHelp')}
					inputProps={{ ...getInputProps(fields.code, { type: 'text' }), autoCapitalize: 'characters', autoComplete: 'off', spellCheck: false }}
					errors={fields.code.errors}
				/>
				<FormActions submit={t('transfer.claim')} />
			</Form>
		</>
	)
}
