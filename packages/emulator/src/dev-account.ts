/** The development account and key every emulator has unless told otherwise. */
export const DEV_ACCOUNT_ID = '00000000-0000-4000-8000-00000000de00';
export const DEV_API_KEY = 'mk_dev_emulator_key';
