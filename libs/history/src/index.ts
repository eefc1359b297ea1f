export * from './aggregate';
export * from './co-change-rank';
export * from './history-prior';
export * from './attribution';
export * from './git-log';
export * from './history.repository';
export * from './history.service';
export * from './history.module';
