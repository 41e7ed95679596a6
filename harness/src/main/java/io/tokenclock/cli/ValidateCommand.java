package io.tokenclock.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import io.tokenclock.contract.ContractFile;

/** {@code tokenclock validate FILE}: checks a contract file; every problem is one line naming its key path. */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = "Check a benchmark contract file (YAML) without running it.")
public final class ValidateCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "FILE", description = "The contract file.")
    Path file;

    @Override
    public Integer call()
    {
        final ContractFile contract = ContractFile.load(file);
        if (contract.isValid())
        {
            System.out.println(file + ": ok");
            return Main.EXIT_OK;
        }
        for (final String error : contract.errors())
        {
            System.err.println(Main.errorLine(file + ": " + error)); // an error may quote the file
        }
        return Main.EXIT_USAGE;
    }
}
