import { Module } from '@nestjs/common';
import { HistoryRepository } from './history.repository';
import { HistoryService } from './history.service';

@Module({
  providers: [HistoryRepository, HistoryService],
  exports: [HistoryRepository, HistoryService],
})
export class HistoryModule {}
