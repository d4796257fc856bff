import { createContext, useContext } from 'react'
import { type HoneypotInputProps } from 'remix-utils/honeypot/server'

const HoneypotContext = createContext<Partial<HoneypotInputProps>>({})

/** The honeypot's field names and timestamp for this page (root loader). */
export const HoneypotProvider = HoneypotContext.Provider
export const useHoneypot = () => useContext(HoneypotContext)
