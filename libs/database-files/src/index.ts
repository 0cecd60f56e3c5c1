export { DatabaseFileError, openingDatabaseFile } from './database-file-error';
